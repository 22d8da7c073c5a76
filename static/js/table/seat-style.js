// How a seat looks everywhere (table, replay, renderers): its colour and its shape.

/** Okabe–Ito colours: seats 0–3 as the renderer contract fixes them, then spares. */
export const SEAT_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442"];
/** A shape per seat so colour is never the only cue. */
export const SEAT_SHAPES = ["●", "▲", "■", "◆", "★", "⬟", "✚"];

export function seatColor(seat) {
  return SEAT_COLORS[Number(seat) % SEAT_COLORS.length];
}

export function seatShape(seat) {
  return SEAT_SHAPES[Number(seat) % SEAT_SHAPES.length];
}

/** The seat's shape as a small HTML mark in its colour, wherever a colour alone would tell seats
 *  apart (seat panels, Drops of Evil's seat tabs, the waiting room): a <span class="seat-shape">
 *  holding the glyph, with `data-shape` (the glyph) and `data-seat`; hidden from screen readers,
 *  since the seat's name beside it says who. `color` defaults to the seat's colour. */
export function seatShapeMark(seat, color = seatColor(seat)) {
  const mark = document.createElement("span");
  mark.className = "seat-shape";
  mark.dataset.shape = seatShape(seat);
  mark.dataset.seat = String(seat);
  mark.setAttribute("aria-hidden", "true");
  mark.style.color = color;
  mark.textContent = seatShape(seat);
  return mark;
}

/** The name a view gives `seat`, or "Seat N". */
export function seatNameIn(view, seat) {
  const s = view && Array.isArray(view.seats) ? view.seats[seat] : null;
  return (s && s.name) || `Seat ${Number(seat) + 1}`;
}

/** JSON with sorted keys: two deep-equal values give the same string. */
export function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value === undefined ? null : value);
}
