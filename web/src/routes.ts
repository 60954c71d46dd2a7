// The page's addresses: the fragment names the view (`#table=ID` a table, `#rulebook=ID` a
// ruleset's rulebook, `#analysis=ID` its analysis (`&hands=N`, `&skill=0`), `#replay=ID:HAND` the replay of a
// finished hand, HAND 0-based; anything else the lobby). Built here and read here only.
import { h } from "./dom";
import { t } from "./i18n";

export type Route =
  /** `unknown`: a fragment that names no view (shown as such in the lobby), else "". */
  | { view: "lobby"; unknown: string }
  | { view: "table"; tableId: string }
  | { view: "rulebook"; rulesetId: string }
  | { view: "analysis"; rulesetId: string; hands: number | null; skill: boolean }
  | { view: "replay"; tableId: string; hand: number };

export const tableHref = (tableId: string): string => `#table=${encodeURIComponent(tableId)}`;
export const rulebookHref = (rulesetId: string): string => `#rulebook=${encodeURIComponent(rulesetId)}`;
/** A ruleset's analysis; `hands` and `skill` where not the page's defaults (a link to an
 * analysis asks for the same one again). */
export function analysisHref(rulesetId: string, hands: number | null = null, skill = true): string {
  const more = `${hands === null ? "" : `&hands=${hands}`}${skill ? "" : "&skill=0"}`;
  return `#analysis=${encodeURIComponent(rulesetId)}${more}`;
}
export const replayHref = (tableId: string, hand: number): string =>
  `#replay=${encodeURIComponent(tableId)}:${hand}`;

/** The view a fragment (`location.hash`) names. */
export function parseRoute(hash: string): Route {
  const fragment = hash.replace(/^#/, "");
  const where = Object.fromEntries(new URLSearchParams(fragment));
  if (where.replay) {
    const at = where.replay.lastIndexOf(":");
    const hand = Number(where.replay.slice(at + 1));
    if (at > 0 && Number.isInteger(hand) && hand >= 0) {
      return { view: "replay", tableId: where.replay.slice(0, at), hand };
    }
  }
  if (where.table) return { view: "table", tableId: where.table };
  if (where.rulebook) return { view: "rulebook", rulesetId: where.rulebook };
  if (where.analysis) {
    const hands = Number(where.hands);
    return {
      view: "analysis",
      rulesetId: where.analysis,
      hands: Number.isInteger(hands) && hands > 0 ? hands : null,
      skill: where.skill !== "0",
    };
  }
  return { view: "lobby", unknown: fragment };
}

/** The link back to the lobby, atop every view but the lobby. */
export function backLink(...more: (HTMLElement | string)[]): HTMLParagraphElement {
  return h("p", {}, h("a", { href: "#" }, t("back")), ...more);
}
