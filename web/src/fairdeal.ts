// The fair-deal check of an exported hand, in the browser (docs/shuffle.md; the same checks
// as the Python client's bhabhi_client/fairdeal.py): the seed hashes (SHA-256: WebCrypto, or
// sha256.ts where the page is not a secure context and has no crypto.subtle) to
// the commitment published at the deal (HandStarted, as the table's events showed it, and as
// the export repeats it), and the published shuffle of the export's deck from that seed
// deals every seat exactly the cards the export records. Pure: no DOM, no network.

import { byId, cardId } from "./cards";
import { isMapping, recordedDeal, words } from "./exported";
import type { Published } from "./published";
import { sha256Plain } from "./sha256";

export const SHUFFLE_LABEL = "bhabhi/shuffle/v1";
const STEPS: Record<string, number> = { clockwise: 1, counterclockwise: -1 };
const TWO_64 = 1n << 64n;
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** True where the page hashes with WebCrypto (a secure context), false with sha256.ts. */
export const WEB_CRYPTO = typeof crypto !== "undefined" && crypto.subtle !== undefined;

async function sha256(bytes: Uint8Array): Promise<ArrayBuffer> {
  return WEB_CRYPTO ? crypto.subtle.digest("SHA-256", bytes as BufferSource) : sha256Plain(bytes);
}

/** `sha256:` + hex SHA-256 of the seed's UTF-8 bytes. */
export async function seedCommitment(seed: string): Promise<string> {
  return `sha256:${hex(await sha256(utf8(seed)))}`;
}

/** The stream of 8-byte big-endian values of SHA-256(label || 0x00 || seed || counter). */
export class Stream {
  private counter = 0n;
  private values: bigint[] = [];
  private readonly prefix: Uint8Array;

  constructor(seed: string, label: string = SHUFFLE_LABEL) {
    const l = utf8(label);
    const s = utf8(seed);
    this.prefix = new Uint8Array(l.length + 1 + s.length);
    this.prefix.set(l, 0);
    this.prefix.set(s, l.length + 1);
  }

  async next(): Promise<bigint> {
    if (this.values.length === 0) {
      const input = new Uint8Array(this.prefix.length + 8);
      input.set(this.prefix, 0);
      new DataView(input.buffer).setBigUint64(this.prefix.length, this.counter, false);
      this.counter += 1n;
      const block = new DataView(await sha256(input));
      for (let start = 0; start < 32; start += 8) this.values.push(block.getBigUint64(start, false));
    }
    return this.values.shift() as bigint;
  }

  /** A value below `m`: the first one under 2^64 - (2^64 mod m), modulo m. */
  async uniform(m: number): Promise<number> {
    const big = BigInt(m);
    const limit = TWO_64 - (TWO_64 % big);
    for (;;) {
      const u = await this.next();
      if (u < limit) return Number(u % big);
    }
  }
}

/** The deck in ascending card id, then Fisher-Yates from the top. */
export async function shuffle(deck: readonly string[], seed: string): Promise<string[]> {
  const cards = byId(deck);
  const values = new Stream(seed, SHUFFLE_LABEL);
  for (let i = cards.length - 1; i > 0; i--) {
    const j = await values.uniform(i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

/** Every seat's cards (seat 0 first), in the order dealt: position k goes to the seat
 * k % players + 1 places after the dealer in play direction. */
export async function deal(
  deck: readonly string[],
  seed: string,
  players: number,
  dealer: number,
  direction: string,
): Promise<string[][]> {
  const step = STEPS[direction];
  const hands: string[][] = Array.from({ length: players }, () => []);
  (await shuffle(deck, seed)).forEach((card, k) => {
    const seat = (((dealer + step * ((k % players) + 1)) % players) + players) % players;
    hands[seat].push(card);
  });
  return hands;
}

/** What went wrong, as a key of the page's words and its values. */
export interface Finding {
  key:
    | "fairOk"
    | "fairNoSeed"
    | "fairBadExport"
    | "fairCommitment"
    | "fairPublished"
    | "fairPublishedSeed"
    | "fairRuleset"
    | "fairCase"
    | "fairDeal";
  values: Record<string, string | number>;
}

export interface DealCheck {
  fair: boolean;
  /** False for a hand with no seed (a test deal) or an export that cannot be read. */
  checkable: boolean;
  seed: string;
  commitment: string;
  /** SHA-256 of the seed, as a commitment. */
  hashed: string;
  /** Every seat's cards as the seed deals them (empty when not checkable). */
  derived: string[][];
  finding: Finding;
}

const SHOWN = 6;

function named(cards: readonly string[], ids: Set<number>): string {
  const chosen = byId(cards).filter((card) => ids.has(cardId(card) ?? -1));
  const more = chosen.length - SHOWN;
  return chosen.slice(0, SHOWN).join(" ") + (more > 0 ? ` +${more}` : "");
}

/** What the table itself says, to hold an export to (each part where the page has it). */
export interface TableSays {
  /** The hand as the table's events showed it. */
  published?: Published | null;
  /** The table's ruleset: its hash and play direction (`clockwise`, `counterclockwise`). */
  ruleset?: { hash: string; direction: string } | null;
}

/** Checks an exported hand (already parsed from YAML), as verify_deal does, and against
 * what the table says: the export's commitment must be the one published at the deal, its
 * seed the one revealed at the end, its ruleset and direction the table's. */
export async function checkDeal(exported: unknown, table: TableSays = {}): Promise<DealCheck> {
  const { published = null, ruleset = null } = table;
  const unchecked = (key: Finding["key"], values: Record<string, string | number> = {}): DealCheck => ({
    fair: false,
    checkable: false,
    seed: "",
    commitment: "",
    hashed: "",
    derived: [],
    finding: { key, values },
  });
  if (!isMapping(exported)) return unchecked("fairBadExport", { field: "(document)" });
  const raw = exported.fair_deal;
  if (raw === undefined || raw === null) return unchecked("fairNoSeed");
  if (!isMapping(raw)) return unchecked("fairBadExport", { field: "fair_deal" });
  const { seed, commitment, players, dealer, direction, deck } = raw;
  if (typeof seed !== "string" || seed === "") return unchecked("fairBadExport", { field: "fair_deal.seed" });
  if (typeof commitment !== "string") return unchecked("fairBadExport", { field: "fair_deal.commitment" });
  if (typeof players !== "number" || !Number.isInteger(players) || players < 1) {
    return unchecked("fairBadExport", { field: "fair_deal.players" });
  }
  if (typeof dealer !== "number" || !Number.isInteger(dealer) || dealer < 0 || dealer >= players) {
    return unchecked("fairBadExport", { field: "fair_deal.dealer" });
  }
  if (typeof direction !== "string" || !(direction in STEPS)) {
    return unchecked("fairBadExport", { field: "fair_deal.direction" });
  }
  const cards = words(deck);
  const ids = cards.map(cardId);
  if (!Array.isArray(deck) || ids.some((id) => id === null) || new Set(ids).size !== ids.length) {
    return unchecked("fairBadExport", { field: "fair_deal.deck" });
  }
  const recorded = recordedDeal(exported);
  if (recorded.some((hand) => hand.some((card) => cardId(card) === null))) {
    return unchecked("fairBadExport", { field: "deal" });
  }
  const derived = await deal(cards, seed, players, dealer, direction);
  const hashed = await seedCommitment(seed);
  const result = (key: Finding["key"], values: Record<string, string | number>): DealCheck => ({
    fair: key === "fairOk",
    checkable: true,
    seed,
    commitment,
    hashed,
    derived,
    finding: { key, values },
  });
  if (published !== null && published.commitment !== commitment) {
    return result("fairPublished", { published: published.commitment || "—", commitment });
  }
  if (published !== null && published.seed !== "" && published.seed !== seed) {
    return result("fairPublishedSeed", { published: published.seed, seed });
  }
  if (hashed !== commitment) return result("fairCommitment", { hashed, commitment });
  const recordedRuleset = isMapping(exported.ruleset) ? exported.ruleset : {};
  if (ruleset !== null && recordedRuleset.hash !== ruleset.hash) {
    const hash = String(recordedRuleset.hash ?? "—");
    return result("fairRuleset", { field: "ruleset.hash", fair: ruleset.hash, recorded: hash });
  }
  if (ruleset !== null && ruleset.direction !== "" && direction !== ruleset.direction) {
    return result("fairRuleset", { field: "fair_deal.direction", fair: ruleset.direction, recorded: direction });
  }
  if (exported.players !== players) {
    return result("fairCase", { field: "players", fair: players, recorded: String(exported.players) });
  }
  if (exported.dealer !== dealer) {
    return result("fairCase", { field: "dealer", fair: dealer, recorded: String(exported.dealer) });
  }
  if ("seed" in exported && exported.seed !== seed) {
    return result("fairCase", { field: "seed", fair: seed, recorded: String(exported.seed) });
  }
  if (recorded.length !== players) {
    return result("fairCase", { field: "players", fair: players, recorded: recorded.length });
  }
  for (let seat = 0; seat < players; seat++) {
    const held = recorded[seat].map((card) => cardId(card) as number);
    const dealt = derived[seat].map((card) => cardId(card) as number);
    const extra = new Set(held.filter((id) => !dealt.includes(id)));
    const missing = new Set(dealt.filter((id) => !held.includes(id)));
    const twice = held.length !== dealt.length || new Set(held).size !== held.length;
    if (extra.size > 0 || missing.size > 0 || twice) {
      return result("fairDeal", {
        seat,
        extra: named(recorded[seat], extra) || "—",
        missing: named(derived[seat], missing) || "—",
      });
    }
  }
  return result("fairOk", { players, dealer, direction, cards: cards.length });
}
