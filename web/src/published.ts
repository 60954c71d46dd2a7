// What the table published about one hand while it was played, read from its public
// event stream (WatchTable from the start, as a spectator): the seed's commitment in the
// hand's HandStarted, sent before any card was played, and the seed in its HandOver. The
// replay holds the export to them, so that the fair-deal check rests on what every player
// was shown at the time, not only on what the export says now.
import { play } from "./api";

export interface Published {
  /** HandStarted's `seed_commitment` ("" for a test deal). */
  commitment: string;
  /** The seq of that HandStarted event. */
  seq: bigint;
  /** HandOver's seed ("" before the hand is over, or for a test deal). */
  seed: string;
}

/** The hand's published commitment and seed, or null when the stream holds no deal of it;
 * `signal` stops the reading. */
export async function publishedDeal(tableId: string, hand: number, signal: AbortSignal): Promise<Published | null> {
  const control = new AbortController();
  signal.addEventListener("abort", () => control.abort());
  let found: Published | null = null;
  try {
    for await (const item of play.watchTable({ tableId, afterSeq: 0n }, { signal: control.signal })) {
      if (item.item.case !== "event") continue;
      const event = item.item.value;
      if (event.handNumber > hand) break; // the hand is behind: its deal was not in the stream
      if (event.handNumber !== hand) continue;
      if (event.kind.case === "handStarted") {
        found = { commitment: event.kind.value.seedCommitment, seq: event.seq, seed: "" };
      } else if (event.kind.case === "handOver" && found !== null) {
        found.seed = event.kind.value.seed;
        break;
      }
    }
  } finally {
    control.abort(); // the rest of the table's history is not needed
  }
  return found;
}
