// The parts of a table's page around the board: the seats panel (the join link, joining,
// starting, giving the seat up, or that the viewer is watching) and the links to the
// replays of the finished hands. Drawn from what the page knows; the calls are the page's.
import { button, h } from "./dom";
import { t } from "./i18n";
import { replayHref, tableHref } from "./routes";
import { savedName } from "./seats";
import { type SeatView, type Table, TableStatus } from "./gen/bhabhi/referee/v1/referee_pb";

export interface PanelChoices {
  /** This tab holds a seat of the table. */
  seated: boolean;
  /** A name being typed in the join form (kept across a redraw). */
  typed: string | undefined;
  join: (name: string) => void;
  leave: () => void;
  start: () => void;
}

/** The join link with a button that copies it. */
function joinLink(tableId: string): HTMLElement[] {
  const link = h("input", {
    type: "text",
    readonly: true,
    id: "join-link",
    value: `${location.origin}${location.pathname}${tableHref(tableId)}`,
  });
  link.addEventListener("focus", () => link.select());
  const copy = button(
    t("copyLink"),
    () => {
      // The clipboard API is for secure contexts only; elsewhere the selected text is copied.
      if (navigator.clipboard) void navigator.clipboard.writeText(link.value).catch(() => undefined);
      else {
        link.select();
        document.execCommand("copy");
      }
    },
    { id: "copy-link" },
  );
  return [h("label", { class: "joinlink" }, t("joinLink"), link), copy];
}

export function seatPanel(table: Table, choices: PanelChoices): HTMLElement {
  const free = table.seatCount - table.seats.filter((seat) => seat.taken).length;
  const watching = h("p", { class: "spectator" }, t("watching"));
  if (table.status !== TableStatus.OPEN) return h("div", { class: "panel" }, choices.seated ? null : watching);
  const parts: HTMLElement[] = joinLink(table.tableId);
  if (!choices.seated && free > 0) {
    const name = h("input", { type: "text", id: "player-name", maxlength: 40, required: true, value: choices.typed ?? savedName() });
    const form = h("form", { class: "join" }, h("label", {}, t("yourName"), name), h("button", { type: "submit" }, t("join")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      choices.join(name.value.trim());
    });
    parts.push(form);
  }
  if (free > 0) parts.push(h("p", {}, t("waitingForPlayers", { n: free })));
  if (choices.seated) {
    if (free === 0) parts.push(h("p", {}, button(t("start"), choices.start, { id: "start" })));
    parts.push(h("p", {}, button(t("leave"), choices.leave, { id: "leave" })));
  } else if (free === 0) parts.push(watching);
  return h("div", { class: "panel" }, ...parts);
}

/** A link to the replay of every finished hand of the table (public once it is over):
 * the hands before the view's, and the view's own once it has a result. */
export function replayLinks(table: Table, view: SeatView | null): HTMLElement | null {
  const finished =
    view !== null && view.handNumber >= 0
      ? view.handNumber + (view.result ? 1 : 0)
      : table.status === TableStatus.FINISHED
        ? table.handsDealt
        : Math.max(0, table.handsDealt - 1);
  if (finished === 0) return null;
  const link = (hand: number): HTMLElement => {
    const latest = hand === finished - 1 && Boolean(view?.result);
    return h(
      "li",
      {},
      h(
        "a",
        { href: replayHref(table.tableId, hand), class: "replay-link", "data-hand": hand },
        latest ? t("replayThis") : t("replayHand", { n: hand + 1 }),
      ),
    );
  };
  return h("ul", { class: "replays", id: "replays" }, ...Array.from({ length: finished }, (_, hand) => link(hand)));
}
