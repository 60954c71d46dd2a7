// The replay of a finished hand (#replay=TABLE_ID:HAND, HAND 0-based), open to anyone once
// the hand is over: ExportHand's case read from YAML, the fair-deal check done here in the
// browser (fairdeal.ts), and the hand step by step (replay.ts) with first / previous /
// next / last buttons and the arrow keys, the seats named as the table names them.
import { parse } from "yaml";
import { play, refusal, tables } from "./api";
import { cardFace, sortCards } from "./cards";
import { button, h, replace } from "./dom";
import { cardText } from "./events";
import { checkDeal, type DealCheck } from "./fairdeal";
import { t } from "./i18n";
import { playerName, title } from "./names";
import { type LinePart, type Played, type Replay, type ReplayState, replayOf } from "./replay";
import type { Table } from "./gen/bhabhi/referee/v1/referee_pb";
import type { View } from "./view";

/** Values of a line part that are seats, to be named. */
const SEAT_VALUES = new Set(["name", "taker", "other"]);

class ReplayPage implements View {
  private table: Table | null = null;
  private replay: Replay | null = null;
  private check: DealCheck | null = null;
  private index = 0;
  private closed = false;
  private readonly onKey = (event: KeyboardEvent): void => this.key(event);

  constructor(
    private readonly root: HTMLElement,
    private readonly tableId: string,
    private readonly hand: number,
  ) {}

  async start(): Promise<void> {
    replace(this.root, t("loading"));
    let exported: unknown;
    try {
      const [got, table] = await Promise.all([
        play.exportHand({ tableId: this.tableId, handNumber: this.hand }),
        tables.getTable({ tableId: this.tableId }).catch(() => null),
      ]);
      this.table = table?.table ?? null;
      exported = parse(got.caseYaml);
    } catch (error) {
      if (this.closed) return;
      const message = error instanceof Error && refusal(error).reason === "" ? error.message : refusal(error).message;
      replace(this.root, this.links(), h("p", { class: "message", role: "alert" }, t("failed", { message })));
      return;
    }
    if (this.closed) return;
    this.replay = replayOf(exported);
    document.addEventListener("keydown", this.onKey);
    this.draw();
    this.check = await checkDeal(exported);
    if (!this.closed) this.draw();
  }

  close(): void {
    this.closed = true;
    document.removeEventListener("keydown", this.onKey);
  }

  /** The seat's player as the table names it (else "Seat N"); a name two seats share
   * (two bots of one kind) is followed by the seat's number. */
  private name(seat: number): string {
    const named = (at: number): string => playerName(this.table?.seats[at]) || t("seatN", { n: at + 1 });
    const name = named(seat);
    const players = this.replay?.players ?? this.table?.seatCount ?? 0;
    const shared = Array.from({ length: players }, (_, at) => at).some((at) => at !== seat && named(at) === name);
    return shared ? `${name} (${t("seatN", { n: seat + 1 })})` : name;
  }

  private key(event: KeyboardEvent): void {
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement) return;
    const last = this.replay?.steps.length ?? 0;
    const to: Record<string, number> = {
      ArrowLeft: this.index - 1,
      ArrowRight: this.index + 1,
      Home: 0,
      End: last,
    };
    if (!(event.key in to)) return;
    event.preventDefault();
    this.go(to[event.key]);
  }

  private go(index: number): void {
    const last = this.replay?.steps.length ?? 0;
    this.index = Math.max(0, Math.min(last, index));
    this.draw();
  }

  private links(): HTMLElement {
    return h(
      "p",
      {},
      h("a", { href: "#" }, t("back")),
      " · ",
      h("a", { href: `#table=${encodeURIComponent(this.tableId)}`, id: "to-table" }, t("replayTable")),
    );
  }

  private lineText(parts: LinePart[]): string {
    return parts
      .map((part) => {
        const values: Record<string, string | number> = {};
        for (const [key, value] of Object.entries(part.values)) {
          if (SEAT_VALUES.has(key) && typeof value === "number") values[key] = this.name(value);
          else if (key === "card") values[key] = cardText(String(value));
          else values[key] = value;
        }
        return t(part.key, values);
      })
      .join(" ");
  }

  private fairSection(): HTMLElement {
    const check = this.check;
    let state = "pending";
    let line = t("fairChecking");
    if (check !== null) {
      state = check.fair ? "verified" : check.checkable ? "failed" : "unchecked";
      const values = { ...check.finding.values };
      if (typeof values.seat === "number") values.name = this.name(values.seat);
      line = t(check.finding.key, values);
    }
    const derived =
      check !== null && check.derived.length > 0
        ? h(
            "details",
            { class: "derived" },
            h("summary", {}, t("derivedTitle")),
            h(
              "ul",
              { id: "derived" },
              ...check.derived.map((cards, seat) =>
                h("li", { "data-seat": seat, "data-cards": cards.join(" ") }, `${this.name(seat)}: `, ...cards.map((card) => cardFace(card))),
              ),
            ),
          )
        : null;
    return h(
      "section",
      { class: "fairdeal", id: "fairdeal", "data-fair": state },
      h("h3", {}, t("fairDealTitle")),
      check !== null && check.checkable
        ? h(
            "dl",
            {},
            h("dt", {}, t("commitment")),
            h("dd", { class: "hex", id: "commitment" }, check.commitment),
            h("dt", {}, t("seed")),
            h("dd", { class: "hex", id: "seed" }, check.seed),
          )
        : null,
      h("p", { class: `fairline ${state}`, id: "fair-line", role: "status" }, line),
      derived,
    );
  }

  private trickBox(state: ReplayState): HTMLElement {
    const shown: Played[] = state.trick.length > 0 ? state.trick : state.ended;
    const label = state.trick.length === 0 && state.ended.length > 0 ? t("trickEnded") : "";
    return h(
      "div",
      { class: "trick", id: "trick", "data-ended": state.trick.length === 0 && state.ended.length > 0 },
      label ? h("div", {}, label) : null,
      shown.length === 0
        ? h("div", {}, t("tableEmpty"))
        : h(
            "ul",
            {},
            ...shown.map((played) => h("li", { "data-seat": played.seat }, `${this.name(played.seat)}: `, cardFace(played.card))),
          ),
      h("div", { id: "waste" }, t("wasteCards", { n: state.waste.length })),
    );
  }

  private seatList(replay: Replay, state: ReplayState): HTMLElement {
    return h(
      "ul",
      { class: "replay-seats", id: "replay-seats" },
      ...state.hands.map((cards, seat) => {
        const out = state.out.includes(seat);
        const bhabhi = state.bhabhi === seat;
        const classes = ["replay-seat", out ? "out" : "", bhabhi ? "bhabhi" : ""].filter(Boolean).join(" ");
        return h(
          "li",
          { class: classes, "data-seat": seat, "data-cards": cards.join(" ") },
          h(
            "div",
            { class: "name" },
            this.name(seat),
            seat === replay.dealer ? ` (${t("dealer")})` : null,
            out ? ` — ${t("out")}` : null,
            bhabhi ? h("strong", { class: "bhabhi-mark" }, ` — ${t("bhabhiMark")}`) : null,
          ),
          h("div", { class: "cards" }, ...sortCards(cards).map((card) => cardFace(card.text))),
        );
      }),
    );
  }

  private draw(): void {
    const replay = this.replay;
    if (this.closed || replay === null) return;
    const last = replay.steps.length;
    const step = this.index === 0 ? null : replay.steps[this.index - 1];
    const state = step?.state ?? replay.start;
    const line =
      step === null ? t("stepDeal", { name: this.name(replay.dealer) }) : this.lineText(step.line);
    const controls = h(
      "div",
      { class: "controls" },
      button(t("stepFirst"), () => this.go(0), { id: "step-first", disabled: this.index === 0 }),
      button(t("stepPrevious"), () => this.go(this.index - 1), { id: "step-previous", disabled: this.index === 0 }),
      button(t("stepNext"), () => this.go(this.index + 1), { id: "step-next", disabled: this.index === last }),
      button(t("stepLast"), () => this.go(last), { id: "step-last", disabled: this.index === last }),
      h("span", { id: "step-number", "data-index": this.index }, t("stepOf", { n: this.index, count: last })),
    );
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.id : "";
    replace(
      this.root,
      this.links(),
      h(
        "h2",
        {},
        t("replayTitle", { n: this.hand + 1 }),
        this.table?.ruleset ? ` — ${title(this.table.ruleset)}` : "",
      ),
      this.fairSection(),
      h(
        "section",
        { class: "replay", "aria-label": t("replayTitle", { n: this.hand + 1 }) },
        controls,
        h("p", { class: "hint" }, t("replayKeys")),
        h("p", { class: "stepline", id: "step-line", "aria-live": "polite", "data-over": state.bhabhi !== undefined }, line),
        this.trickBox(state),
        this.seatList(replay, state),
      ),
    );
    if (focused.startsWith("step-")) {
      const again = document.getElementById(focused);
      if (again instanceof HTMLButtonElement && !again.disabled) again.focus();
    }
  }
}

export function replayPage(root: HTMLElement, tableId: string, hand: number): View {
  const page = new ReplayPage(root, tableId, hand);
  void page.start();
  return page;
}
