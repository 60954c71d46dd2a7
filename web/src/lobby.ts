// The lobby: the tables open or in play (ListTables), the rulesets (ListRulesets) with a
// link to each rulebook and analysis, a form that creates a table (CreateTable) and opens
// it, and the latest finished tables, whose pages link the replays of their hands.
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import { failedText, refusedText, rulesets, tables } from "./api";
import { append, h, replace } from "./dom";
import { t } from "./i18n";
import { BOT_NAMES, localized, playerName, statusText, title } from "./names";
import { analysisHref, rulebookHref, tableHref } from "./routes";
import {
  BotStrategy,
  type RulesetSummary,
  type Table,
  TableStatus,
} from "./gen/bhabhi/referee/v1/referee_pb";
import type { View } from "./view";

const REFRESH_MS = 5000;
/** The finished tables listed, the latest first. */
const FINISHED_SHOWN = 10;

/** The seat counts a ruleset allows: min to max, even only where partners sit opposite. */
export function seatCounts(ruleset: RulesetSummary): number[] {
  const counts: number[] = [];
  for (let n = ruleset.minPlayers; n <= ruleset.maxPlayers; n++) {
    if (!ruleset.teams || n % 2 === 0) counts.push(n);
  }
  return counts;
}

function tableRow(table: Table): HTMLTableRowElement {
  const taken = table.seats.filter((seat) => seat.taken).length;
  return h(
    "tr",
    { "data-table": table.tableId },
    h("td", {}, table.ruleset ? title(table.ruleset) : ""),
    h(
      "td",
      { class: "seats" },
      t("seatsTaken", { taken, count: table.seatCount }),
      h(
        "span",
        { class: "names" },
        table.seats.map((seat) => playerName(seat) || t("free")).join(", "),
      ),
    ),
    h("td", { class: "status" }, statusText(table.status)),
    h("td", {}, h("a", { href: tableHref(table.tableId) }, t("openTable"))),
  );
}

function tableList(found: Table[], none: string): HTMLElement {
  if (found.length === 0) return h("p", { class: "empty" }, none);
  const body = h("tbody", {});
  for (const table of found) body.appendChild(tableRow(table));
  return h(
    "table",
    { class: "tables" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", {}, t("ruleset")), h("th", {}, t("seats")), h("th", {}, t("status")), h("th", {})),
    ),
    body,
  );
}

function rulesetList(found: RulesetSummary[]): HTMLElement {
  const list = h("ul", { class: "rulesets" });
  for (const ruleset of found) {
    list.appendChild(
      h(
        "li",
        { "data-ruleset": ruleset.id },
        h("strong", {}, title(ruleset)),
        " ",
        h(
          "span",
          { class: "players" },
          ruleset.minPlayers === ruleset.maxPlayers
            ? t("playersExactly", { n: ruleset.minPlayers })
            : t("players", { min: ruleset.minPlayers, max: ruleset.maxPlayers }),
        ),
        ruleset.teams ? h("span", { class: "players" }, `, ${t("teams")}`) : null,
        " — ",
        h("a", { href: rulebookHref(ruleset.id), class: "rulebook" }, t("rulebook")),
        " · ",
        h("a", { href: analysisHref(ruleset.id), class: "analysis" }, t("analysis")),
        h("div", { class: "description" }, localized(ruleset.description, "")),
      ),
    );
  }
  return list;
}

function createForm(found: RulesetSummary[], message: HTMLElement): HTMLFormElement {
  const choice = h("select", { name: "ruleset", id: "new-ruleset" });
  for (const ruleset of found) choice.appendChild(h("option", { value: ruleset.id }, title(ruleset)));
  const seats = h("select", { name: "seats", id: "new-seats" });
  const fillSeats = (): void => {
    const ruleset = found.find((r) => r.id === choice.value);
    replace(seats, ...(ruleset ? seatCounts(ruleset) : []).map((n) => h("option", { value: n }, String(n))));
  };
  const players = h("fieldset", { class: "players", id: "new-players" });
  const fillPlayers = (): void => {
    const count = Number(seats.value) || 0;
    // The choices made for seats that are still there are kept.
    const chosen = Array.from(players.querySelectorAll<HTMLSelectElement>("select[data-seat]"), (s) => s.value);
    replace(
      players,
      h("legend", {}, t("whoPlays")),
      ...Array.from({ length: count }, (_, seat) => playerChoice(seat, chosen[seat])),
    );
  };
  choice.addEventListener("change", () => {
    fillSeats();
    fillPlayers();
  });
  seats.addEventListener("change", fillPlayers);
  fillSeats();
  fillPlayers();
  const clock = h("input", { type: "number", name: "turn", id: "new-turn", min: 0, max: 86400, value: 0 });
  const hands = h("input", { type: "number", name: "hands", id: "new-hands", min: 0, max: 1000, value: 1 });
  const pause = h("input", {
    type: "number", name: "bot-delay", id: "new-bot-delay", min: 0, max: 10, step: 0.1, value: 1,
  });
  const form = h(
    "form",
    { class: "create" },
    h("label", {}, t("ruleset"), choice),
    h("label", {}, t("seats"), seats),
    players,
    h("label", {}, t("turnTime"), clock),
    h("label", {}, t("hands"), hands),
    h("label", {}, t("botDelay"), pause),
    h("button", { type: "submit" }, t("create")),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const seconds = Math.max(0, Math.floor(Number(clock.value) || 0));
    tables
      .createTable({
        rulesetId: choice.value,
        seatCount: Number(seats.value),
        turnTime: seconds > 0 ? durationFromMs(seconds * 1000) : undefined,
        hands: Math.max(0, Math.floor(Number(hands.value) || 0)),
        bots: chosenBots(players),
        botDelay: durationFromMs(Math.max(0, Math.round((Number(pause.value) || 0) * 1000))),
      })
      .then((created) => {
        if (created.table) location.hash = tableHref(created.table.tableId);
      })
      .catch((error: unknown) => {
        replace(message, refusedText(error));
      });
  });
  return form;
}

/** Who plays `seat` of a new table: a person, or one of the referee's bots (by default
 * the first seat is a person's and the others are heuristic bots: a game against bots). */
function playerChoice(seat: number, chosen?: string): HTMLLabelElement {
  const select = h("select", { name: `player-${seat}`, "data-seat": seat });
  select.appendChild(h("option", { value: BotStrategy.UNSPECIFIED }, t("person")));
  for (const [strategy, key] of BOT_NAMES) {
    select.appendChild(h("option", { value: strategy }, t(key)));
  }
  select.value = chosen ?? String(seat === 0 ? BotStrategy.UNSPECIFIED : BotStrategy.HEURISTIC);
  return h("label", {}, t("seatN", { n: seat + 1 }), select);
}

/** The bots chosen in the form's seat choices, for CreateTable. */
function chosenBots(players: HTMLElement): { seat: number; strategy: BotStrategy }[] {
  const bots: { seat: number; strategy: BotStrategy }[] = [];
  for (const select of players.querySelectorAll<HTMLSelectElement>("select[data-seat]")) {
    const strategy = Number(select.value) as BotStrategy;
    if (strategy !== BotStrategy.UNSPECIFIED) bots.push({ seat: Number(select.dataset.seat), strategy });
  }
  return bots;
}

/** The lobby in `root`; the table list refreshes itself every few seconds. `unknown`: an
 * address that names no page, said so atop the lobby. */
export function lobby(root: HTMLElement, unknown = ""): View {
  const tablesBox = h("div", { id: "tables" }, t("loading"));
  const finishedBox = h("div", { id: "finished" }, t("loading"));
  const rulesetsBox = h("div", { id: "rulesets" }, t("loading"));
  const formBox = h("div", { id: "create" });
  const message = h("p", { class: "message", role: "alert" });
  replace(
    root,
    unknown ? h("p", { class: "message", role: "alert", id: "unknown-address" }, t("unknownAddress", { address: `#${unknown}` })) : null,
    h("section", {}, h("h2", {}, t("tables")), tablesBox),
    h("section", {}, h("h2", {}, t("newTable")), formBox, message),
    h("section", {}, h("h2", {}, t("rulesets")), rulesetsBox),
    h("section", {}, h("h2", {}, t("finishedTables")), finishedBox),
  );
  const loadTables = (): void => {
    if (document.hidden) return; // a tab out of sight asks nothing; it asks again when seen
    tables
      .listTables({ pageSize: 200 })
      .then((listed) => {
        const shown = listed.tables.filter((table) => table.status !== TableStatus.FINISHED);
        replace(tablesBox, tableList(shown, t("noTables")));
        // The latest finished tables, whose pages link the replays of their hands.
        const finished = listed.tables
          .filter((table) => table.status === TableStatus.FINISHED)
          .sort((a, b) => Number((b.createdAt?.seconds ?? 0n) - (a.createdAt?.seconds ?? 0n)))
          .slice(0, FINISHED_SHOWN);
        replace(finishedBox, tableList(finished, t("noFinished")));
      })
      .catch((error: unknown) => replace(tablesBox, failedText(error)));
  };
  loadTables();
  rulesets
    .listRulesets({})
    .then((listed) => {
      replace(rulesetsBox, rulesetList(listed.rulesets));
      append(formBox, createForm(listed.rulesets, message));
    })
    .catch((error: unknown) => replace(rulesetsBox, failedText(error)));
  const timer = window.setInterval(loadTables, REFRESH_MS);
  document.addEventListener("visibilitychange", loadTables);
  return {
    close: () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", loadTables);
    },
  };
}
