"""Markdown tables of benchmark results: ``.venv/bin/python bench/report.py [files...]``
(default: every ``bench/results/*.json``, oldest first)."""
from __future__ import annotations

import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: bench.hardbots formats its own runs


def churn_rows(path: Path, r: dict) -> list[str]:
    """A ``--churn-only`` run: the churn and idle-maps figures per game (issue 13, item 4)."""
    m = r["machine"]
    out = [f"**{path.name}** — churn only, load avg at start {m['loadavg_at_start'][0]:.1f} on "
           f"{m['cpus']} CPUs", "",
           "| game | warm-up + cycles | RSS MB after warm-up → end | MB per 1,000 cycles | "
           "per-match maps freed after (TTL) | left after |", "|---|---|---|---:|---|---|"]
    for game, e in r["games"].items():
        c, i = e["lair"]["churn"], e["lair"].get("idle", {})
        left = {k: v for k, v in i.get("after_idle_maps", {}).items() if v}
        out.append(f"| {game} | {c['warmup_cycles']} + {c['cycles']} | "
                   f"{c['rss_checkpoints'][0]['rss_mb']} → {c['rss_checkpoints'][-1]['rss_mb']} | "
                   f"{c['growth_mb_per_1000_cycles']} | {i.get('seconds_until_freed')} s "
                   f"({i.get('ttl_s')} s) | {left or 'nothing'} |")
    return out + [""]


def ab_rows(path: Path, r: dict) -> list[str]:
    """A ``--ab`` run (bench/ab.py): per game and figure, the medians per side, the ratio
    new ÷ old (* outside ±10 %) and every round's old/new."""
    a, m = r["args"], r["machine"]
    out = [f"**{path.name}** — A/B: old `{r['sides']['old']['ref'][:10]}` vs new "
           f"`{r['sides']['new']['ref'][:10]}`, {a['matches']} matches ({a['sat_matches']} in "
           f"saturation), {a['seconds']:.0f} s phases, {a['ab_rounds']} rounds, load avg at "
           f"start {m['loadavg_at_start'][0]:.1f} on {m['cpus']} CPUs, {r['wall_seconds']} s",
           "", "| game | figure | old (median) | new (median) | new ÷ old | rounds old/new |",
           "|---|---|---:|---:|---:|---|"]
    for game, e in r["games"].items():
        for key, ratio in e["ratio_new_over_old"].items():
            flag = f" * ({e['flagged'][key]})" if key in e["flagged"] else ""
            rounds = ", ".join(f"{row['old'][key]}/{row['new'][key]}" for row in e["rounds"])
            out.append(f"| {game} | {key} | {e['median']['old'][key]} | "
                       f"{e['median']['new'][key]} | {ratio}{flag} | {rounds} |")
    return out + [""]


def rows(path: Path) -> list[str]:
    r = orjson.loads(path.read_bytes())
    a, m = r["args"], r["machine"]
    if r.get("kind") == "ab":
        return ab_rows(path, r)
    if r.get("kind") == "hard_bots":
        from bench import hardbots
        return [f"**{path.name}** — hard bots beside paced tables", "", *hardbots.rows(r)]
    if a.get("churn_only"):
        return churn_rows(path, r)
    raw = r["postgres_raw"]
    head = (f"**{path.name}** — {a['matches']} matches ({a['sat_matches']} in saturation), "
            f"{a['seconds']:.0f} s phases, {'deflate' if a.get('compression') else 'no deflate'}, "
            f"load avg at start {m['loadavg_at_start'][0]:.1f} on {m['cpus']} CPUs; raw PostgreSQL "
            f"at concurrency {raw['single_row']['concurrency']}: "
            f"{raw['single_row']['commits_per_s']} single-row commits/s (p99 "
            f"{raw['single_row']['p99_ms']} ms), {raw['update_insert']['commits_per_s']} "
            f"UPDATE+INSERT/s")
    out = [head, "",
           "| game | engine µs/action | Lair paced act/s | p50/p95/p99 ms | bare paced p99 ms "
           "| Lair sat act/s | p99 ms | bare sat rounds/s | Lair µs CPU/action | bare µs/round "
           "| KB/socket (bare) | churn RSS MB | errors (paced; sat) |",
           "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---|---|"]
    for game, e in r["games"].items():
        lp, ls = e["lair"]["paced"], e["lair"]["saturation"]
        bp, bs = e["bare"]["paced"], e["bare"]["saturation"]
        lat = lp["latency_action_to_last_view"]
        churn = e["lair"].get("churn")
        out.append(
            f"| {game} | {e['engine']['us_per_action']['total']:.0f} | {lp['actions_per_s']} | "
            f"{lat['p50_ms']}/{lat['p95_ms']}/{lat['p99_ms']} | "
            f"{bp['latency_action_to_last_view']['p99_ms']} | {ls['actions_per_s']} | "
            f"{ls['latency_action_to_last_view']['p99_ms']} | {bs['actions_per_s']} | "
            f"{lp['server_cpu_us_per_action']}/{ls['server_cpu_us_per_action']} | "
            f"{bs['server_cpu_us_per_action']} | {e['lair']['memory']['kb_per_socket']} "
            f"({e['bare']['kb_per_socket']}) | "
            + (f"{churn['cycles']} cycles: "
               + " → ".join(str(p['rss_mb']) for p in churn['rss_checkpoints']) if churn else "—")
            + f" | {lp['errors'] or 0}; {ls['errors'] or 0} |")
    return out + [""]


def main() -> None:
    files = [Path(f) for f in sys.argv[1:]] or sorted((ROOT / "bench" / "results").glob("*.json"))
    for f in files:
        print("\n".join(rows(f)))


if __name__ == "__main__":
    main()
