// Reading ExportHand's case (a conformance case parsed from YAML, so any shape at all):
// the few typed reads the replay and the fair-deal check share. Pure.

export type Mapping = Record<string, unknown>;

export const isMapping = (value: unknown): value is Mapping =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A list of cards as the case writes it: a string of words or a list. */
export function words(entry: unknown): string[] {
  if (typeof entry === "string") return entry.split(/\s+/).filter(Boolean);
  if (Array.isArray(entry)) return entry.map(String);
  return [];
}

/** The deal recorded in a case: every seat's cards. */
export function recordedDeal(exported: Mapping): string[][] {
  return Array.isArray(exported.deal) ? exported.deal.map(words) : [];
}

/** A number of the case, or -1 where there is none. */
export const num = (value: unknown): number => (typeof value === "number" ? value : -1);
