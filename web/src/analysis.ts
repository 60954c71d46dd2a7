// A ruleset's analysis (#analysis=RULESET_ID): AnalyzeRuleset, run by the referee in a
// worker process, shown for someone who wants to know whether a variant ends and is fair.
// For each player count: how the hands ended, each seat's Bhabhi rate (by its place after
// the dealer) with its 95% interval against the fair share, the test of equal chances, how
// long a hand is, and the warnings with the clauses most likely responsible. The form asks
// again, by the address, with other hands or without the skill measure (about a tenth of
// the work).
import { failedText, refusal, rulesets } from "./api";
import { h, replace } from "./dom";
import { language, t } from "./i18n";
import { title } from "./names";
import { analysisHref, backLink, rulebookHref } from "./routes";
import type { Key } from "./strings";
import type {
  AnalysisSpread,
  AnalysisWarning,
  PlayerCountAnalysis,
  SeatAnalysis,
} from "./gen/bhabhi/referee/v1/referee_pb";
import type { View } from "./view";

const DEFAULT_HANDS = 200;
/** The referee's default limit (`bhabhi serve --analysis-max-hands`); a higher one is its to refuse. */
const MAX_HANDS = 1000;
/** Equal chances are rejected below this p-value (the analysis's own line, UNFAIR_P_VALUE). */
const UNFAIR_P = 0.01;

/** The warnings' codes (docs/analysis.md) and the page's words for them. */
const WARNINGS: Record<string, Key> = {
  "no-hand-ended": "warnNoHandEnded",
  "most-hands-never-end": "warnMostNeverEnd",
  "no-bhabhi": "warnNoBhabhi",
  "decided-by-deal": "warnDecidedByDeal",
  "unfair-seat": "warnUnfairSeat",
  "skill-does-not-matter": "warnSkillDoesNotMatter",
  "dominant-line": "warnDominantLine",
};

const percent = (value: number): string =>
  new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 1 }).format(value);
const number = (value: number, digits = 2): string =>
  new Intl.NumberFormat(language(), { maximumFractionDigits: digits }).format(value);

function seatLabel(offset: number): string {
  return offset === 0 ? t("dealerSeat") : t("afterDealer", { n: offset });
}

/** A seat's row: its rate, its interval, and a bar with the fair share marked. */
function seatRow(seat: SeatAnalysis, fair: number, scale: number): HTMLTableRowElement {
  const at = (value: number): string => `${Math.min(100, (100 * value) / scale).toFixed(1)}%`;
  const bar = h(
    "div",
    { class: "ratebar", "aria-hidden": "true" },
    h("span", { class: "interval", style: `left:${at(seat.ci95Low)};width:calc(${at(seat.ci95High)} - ${at(seat.ci95Low)})` }),
    h("span", { class: "rate", style: `left:${at(seat.bhabhiRate)}` }),
    h("span", { class: "fair", style: `left:${at(fair)}` }),
  );
  return h(
    "tr",
    { "data-offset": seat.offset },
    h("td", {}, seatLabel(seat.offset)),
    h("td", { class: "number" }, percent(seat.bhabhiRate)),
    h("td", { class: "number" }, `${percent(seat.ci95Low)} – ${percent(seat.ci95High)}`),
    h("td", { class: "bar" }, bar),
  );
}

function spreadLine(key: Key, spread: AnalysisSpread | undefined): HTMLElement | null {
  if (spread === undefined) return null;
  const values = {
    median: number(spread.median, 1),
    q1: number(spread.q1, 1),
    q3: number(spread.q3, 1),
    p95: number(spread.p95, 1),
    max: number(spread.max, 1),
  };
  return h("p", {}, t(key, values));
}

function warningItem(warning: AnalysisWarning): HTMLElement {
  const key = WARNINGS[warning.code];
  // The referee words a warning in English, with its figures: shown as it is in English,
  // and under the page's own headline in the other languages.
  const english = warning.message.charAt(0).toUpperCase() + warning.message.slice(1);
  const headline = language() === "en" || key === undefined ? english : t(key);
  return h(
    "li",
    { "data-code": warning.code },
    h("strong", {}, headline),
    warning.clauses.length > 0 ? h("div", { class: "clauses" }, t("clausesLine", { clauses: warning.clauses.join(", ") })) : null,
    language() !== "en" && key !== undefined
      ? h("details", {}, h("summary", {}, t("inEnglish")), h("p", { lang: "en" }, english))
      : null,
  );
}

function countSection(count: PlayerCountAnalysis): HTMLElement {
  const fair = 1 / count.players;
  const ended = count.termination;
  const scale = Math.max(fair * 2, ...count.seats.map((seat) => seat.ci95High));
  const equal = count.fairnessPValue >= UNFAIR_P;
  return h(
    "section",
    { class: "playercount", "data-players": count.players },
    h("h3", {}, t("playersExactly", { n: count.players })),
    h(
      "ul",
      { class: "ended" },
      h("li", { "data-ended": "normal" }, `${t("endedNormally")}: ${percent(ended?.normal ?? 0)}`),
      ended && ended.deadPosition > 0 ? h("li", { "data-ended": "dead" }, `${t("endedDead")}: ${percent(ended.deadPosition)}`) : null,
      ended && ended.bound > 0 ? h("li", { "data-ended": "bound" }, `${t("endedBound")}: ${percent(ended.bound)}`) : null,
    ),
    h(
      "table",
      { class: "seatrates" },
      h(
        "thead",
        {},
        h("tr", {}, h("th", {}, t("seatColumn")), h("th", {}, t("rateColumn")), h("th", {}, t("intervalColumn")), h("th", {}, t("fairShare", { share: percent(fair) }))),
      ),
      h("tbody", {}, ...count.seats.map((seat) => seatRow(seat, fair, scale))),
    ),
    h(
      "p",
      { class: equal ? "fair" : "unfair", "data-fair": equal },
      t(equal ? "chancesEqual" : "chancesDiffer", { p: number(count.fairnessPValue, 3) }),
      " ",
      t("balanceLine", { balance: number(count.balance, 3) }),
    ),
    spreadLine("tricksLine", count.tricks),
    spreadLine("actionsLine", count.actions),
    h("h4", {}, t("warningsTitle")),
    count.warnings.length === 0
      ? h("p", { class: "nowarnings" }, t("noWarnings"))
      : h("ul", { class: "warnings" }, ...count.warnings.map(warningItem)),
  );
}

/** The analysis of `rulesetId` with `asked` hands a player count and the skill measure or
 * not, asked for at once; with `asked` null (the lobby's link) only the form, since an
 * analysis is a minute of the referee's work: the form asks by the address. */
export function analysisPage(root: HTMLElement, rulesetId: string, asked: number | null, withSkill: boolean): View {
  let open = true;
  const count = Math.max(1, Math.min(MAX_HANDS, asked ?? DEFAULT_HANDS));
  const heading = h("h2", {}, t("analysisTitle", { ruleset: rulesetId }));
  const result = h("div", { id: "analysis", "aria-live": "polite" });
  const hands = h("input", { type: "number", id: "analysis-hands", min: 1, max: MAX_HANDS, value: count });
  const skill = h("input", { type: "checkbox", id: "analysis-skill", checked: withSkill });
  const form = h(
    "form",
    { class: "analyse" },
    h("label", {}, t("analysisHands"), hands),
    h("label", { class: "check" }, h("span", {}, t("analysisSkill")), skill),
    h("button", { type: "submit" }, t("analyse")),
  );
  const run = (): void => {
    replace(result, h("p", { class: "pending", role: "status" }, t("analysing")));
    rulesets
      .analyzeRuleset({ rulesetId, hands: count, noSkill: !withSkill })
      .then((answer) => {
        if (!open) return;
        if (answer.ruleset) replace(heading, t("analysisTitle", { ruleset: title(answer.ruleset) }));
        replace(
          result,
          h("p", { class: "hint" }, t("analysisIntro", { hands: count })),
          ...answer.playerCounts.map(countSection),
        );
        result.dataset.done = "true";
      })
      .catch((error: unknown) => {
        if (!open) return;
        const message = h("p", { class: "message", role: "alert" }, failedText(error));
        // No such ruleset: nothing here to ask for again.
        if (refusal(error).reason === "ruleset_not_found") replace(root, backLink(), message);
        else replace(result, message);
      });
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const wanted = Math.max(1, Math.min(MAX_HANDS, Math.floor(Number(hands.value) || DEFAULT_HANDS)));
    const address = analysisHref(rulesetId, wanted, skill.checked);
    if (location.hash === address) run(); // the same analysis again (the referee remembers it)
    else location.hash = address;
  });
  replace(
    root,
    backLink(" · ", h("a", { href: rulebookHref(rulesetId) }, t("rulebook"))),
    heading,
    form,
    result,
  );
  if (asked !== null) run();
  else replace(result, h("p", { class: "hint" }, t("analysisCost")));
  return {
    close: () => {
      open = false;
    },
  };
}
