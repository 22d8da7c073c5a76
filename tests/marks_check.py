"""Where the marks' tags lie (docs/renderer-contract.md "Marks"; table review 8, worst problem 2):
the "Picked" / "Suggested" tags (an element's ::after, or a drawn ``g.hint-tag`` in an SVG drawing)
and a renderer's own tag word (``.has-tag``'s ::before: Evil Corp.'s "Keep?") sit on their own mark
or in free space: never over another tag, over a line of text or a small picture (an icon, a
badge, at most 72 px) of the board, nor a quarter on a piece beside their mark (the next tile of a row),
and never cut by a box that clips them. (Its own mark's
pictures of 20 px or more without a number, a monster's creature, it may cover.)

Measured in the page, independently of static/js/table/tags.js: a pseudo-element's box from its
computed left / top / size and transform, a drawn tag's from its rectangle.
"""
from __future__ import annotations

import re

#: Every tag on the board: {word, box, cut, hits: [what it covers], over: [tags it overlaps]}.
TAGS_JS = r"""() => {
  const board = document.getElementById('board');
  const tags = [];
  const pseudoBox = (n, pseudo) => {
    const cs = getComputedStyle(n, pseudo);
    if (!cs.content || ['none', 'normal'].includes(cs.content) || cs.display === 'none') return null;
    const r = n.getBoundingClientRect();
    const ox = r.left + n.clientLeft, oy = r.top + n.clientTop;
    const w = parseFloat(cs.width) + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
    const h = parseFloat(cs.height) + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
    const m = new DOMMatrix(cs.transform === 'none' ? undefined : cs.transform);
    const px = (v, base) => (v.endsWith('%') ? parseFloat(v) / 100 * base : parseFloat(v));
    let left = px(cs.left, n.clientWidth), top = px(cs.top, n.clientHeight);
    if (isNaN(top)) top = n.clientHeight - px(cs.bottom, n.clientHeight) - h;
    left += ox + m.e; top += oy + m.f;
    return {word: cs.content.replace(/^"|"$/g, ''), n, box: {left, top, right: left + w, bottom: top + h}};
  };
  for (const n of board.querySelectorAll('.picked:not(svg *), .hint-hit:not(svg *)')) {
    const t = pseudoBox(n, '::after');
    if (t) tags.push(t);
  }
  for (const n of board.querySelectorAll('.has-tag:not(svg *)')) {
    const t = pseudoBox(n, '::before');
    if (t) tags.push(t);
  }
  for (const g of board.querySelectorAll('svg g.hint-tag')) {
    const r = g.querySelector('rect').getBoundingClientRect(), w = g.querySelector('text').getBoundingClientRect();
    // (its word wider than its rectangle is cut too: "Suggestec", review 8)
    tags.push({word: g.textContent, n: g.ownerSVGElement, box: {left: r.left, top: r.top, right: r.right, bottom: r.bottom},
               spills: w.left < r.left - .5 || w.right > r.right + .5});
  }
  const inter = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  // what a tag may not cover: lines of text and small pictures
  const things = [];
  const walk = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const p = t.parentElement;
    if (!t.textContent.trim() || !p || p.closest('.hint-tag, title, style, script, [hidden]')) continue;
    range.selectNodeContents(t);
    for (const q of range.getClientRects()) if (q.width > .5 && q.height > .5)
      things.push({what: `text "${t.textContent.trim().slice(0, 30)}"`, r: q});
  }
  for (const e of board.querySelectorAll('svg, img')) {
    if (e.closest('.hint-tag')) continue;
    const r = e.getBoundingClientRect();
    if (r.width > .5 && r.height > .5 && r.width <= 72 && r.height <= 72 && getComputedStyle(e).visibility !== 'hidden')
      things.push({what: `picture ${e.getAttribute('aria-label') || e.getAttribute('class') || e.tagName}`, r, e});
  }
  const clipOf = (n) => {
    let c = {left: 0, top: -1e9, right: document.documentElement.clientWidth, bottom: 1e9};
    for (let e = n; e && e !== document.body; e = e.parentElement) {
      if (e instanceof SVGElement && e.ownerSVGElement) continue;
      const cs = getComputedStyle(e);
      const svg = e instanceof SVGSVGElement && cs.overflow !== 'visible';
      const cx = cs.overflowX !== 'visible' || svg, cy = cs.overflowY !== 'visible' || svg;
      if (!cx && !cy) continue;
      const r = e.getBoundingClientRect();
      const i = svg ? r : {left: r.left + e.clientLeft, top: r.top + e.clientTop,
                           right: r.left + e.clientLeft + e.clientWidth, bottom: r.top + e.clientTop + e.clientHeight};
      if (cx) { c.left = Math.max(c.left, i.left); c.right = Math.min(c.right, i.right); }
      if (cy) { c.top = Math.max(c.top, i.top); c.bottom = Math.min(c.bottom, i.bottom); }
    }
    return c;
  };
  const round = (b) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, Math.round(v)]));
  return tags.map((t, i) => {
    const b = t.box, c = clipOf(t.n);
    const cut = !!t.spills || b.left < c.left - 1 || b.right > c.right + 1 || b.top < c.top - 1 || b.bottom > c.bottom + 1;
    // (its own mark's large pictures without a number, a monster's creature, it may cover; not badges)
    const own = t.n instanceof SVGSVGElement ? null : t.n;
    // (a picture's box is square, most pictures round: a few px² of its corner are no cover)
    const hits = things.filter((x) => inter(b, x.r) > (x.e ? 6 : 2) && !(x.e && own && own.contains(x.e) && !x.e.querySelector('text') && x.r.width >= 20 && x.r.height >= 20)).map((x) => `${x.what} (${Math.round(inter(b, x.r))} px²)`);
    const over = tags.filter((u, j) => j !== i && inter(b, u.box) > 0).map((u) => u.word);
    // (the pieces beside its mark: a tag a quarter on the next tile reads as that tile's, review 9)
    const area = (b.right - b.left) * (b.bottom - b.top);
    for (const e of own && own.parentElement ? own.parentElement.children : []) {
      const r = e.getBoundingClientRect();
      if (e !== own && !(e instanceof SVGElement) && inter(b, r) > area / 4)
        hits.push(`the piece beside it, ${(e.getAttribute('aria-label') || String(e.className) || e.tagName).slice(0, 40)} (${Math.round(inter(b, r))} of ${Math.round(area)} px²)`);
    }
    return {word: t.word, box: round(b), cut, hits, over};
  });
}"""


def tags_on_board(page) -> list[dict]:
    """The board's tags, each with what it covers (after the table placed them)."""
    page.evaluate("() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
    return page.evaluate(TAGS_JS)


def assert_tags_clear(page, expect: int | None = None) -> list[dict]:
    """Every tag of the board whole, over no other tag, text or small picture; at least
    ``expect`` tags when given. Returns them."""

    tags = tags_on_board(page)
    if expect is not None:
        assert len(tags) >= expect, ("fewer tags than marks", tags)
    bad = [t for t in tags if t["cut"] or t["hits"] or t["over"]]
    assert not bad, ("a tag lies on a neighbour or is cut", bad)
    for t in tags:
        assert re.fullmatch(r"Picked|Suggested|Keep\?", t["word"]), t
    return tags
