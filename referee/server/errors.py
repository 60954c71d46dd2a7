"""Refusals: one error type for the whole referee, with a stable reason and three languages.

The use-case layer raises ``Refusal``; the gRPC layer turns it into a status in one place
(``service.py``), with a ``google.rpc.ErrorInfo`` carrying the reason and a
``LocalizedMessage`` per language.  Reasons are the engine's (``referee.engine.Reason``,
the same codes as the conformance suite's negative steps) plus the referee's own.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from referee.reasons import Reason


class Status(StrEnum):
    """The kind of refusal; mapped to a gRPC status code by the gRPC layer."""

    INVALID_ARGUMENT = "invalid_argument"
    NOT_FOUND = "not_found"
    ALREADY_EXISTS = "already_exists"
    FAILED_PRECONDITION = "failed_precondition"
    ABORTED = "aborted"
    UNAUTHENTICATED = "unauthenticated"
    PERMISSION_DENIED = "permission_denied"
    UNAVAILABLE = "unavailable"
    RESOURCE_EXHAUSTED = "resource_exhausted"


# reason -> (status, English, German, Polish); {placeholders} are filled from ``details``.
MESSAGES: dict[Reason, tuple[Status, str, str, str]] = {
    # --- the engine's reasons (referee.engine.types.Reason) ---
    Reason.HAND_OVER: (
        Status.FAILED_PRECONDITION,
        "The hand is over.",
        "Die Runde ist vorbei.",
        "Rozdanie się skończyło.",
    ),
    Reason.UNKNOWN_SEAT: (
        Status.INVALID_ARGUMENT,
        "There is no such seat at this table.",
        "Diesen Platz gibt es an diesem Tisch nicht.",
        "Przy tym stole nie ma takiego miejsca.",
    ),
    Reason.PLAYER_OUT: (
        Status.FAILED_PRECONDITION,
        "You are out of this hand.",
        "Du bist in dieser Runde schon draußen.",
        "Jesteś już poza tym rozdaniem.",
    ),
    Reason.NOT_YOUR_TURN: (
        Status.FAILED_PRECONDITION,
        "It is not your turn; seat {turn} is to play.",
        "Du bist nicht am Zug; Platz {turn} ist dran.",
        "To nie twój ruch; teraz gra miejsce {turn}.",
    ),
    Reason.CARD_NOT_IN_HAND: (
        Status.FAILED_PRECONDITION,
        "You do not hold {card}.",
        "Du hast {card} nicht auf der Hand.",
        "Nie masz karty {card}.",
    ),
    Reason.CARD_NOT_IN_DECK: (
        Status.INVALID_ARGUMENT,
        "{card} is not a card of this ruleset's deck.",
        "{card} ist keine Karte dieses Blatts.",
        "{card} nie jest kartą tej talii.",
    ),
    Reason.MUST_FOLLOW_SUIT: (
        Status.FAILED_PRECONDITION,
        "You must follow suit: you hold {suit}.",
        "Du musst Farbe bedienen: du hast {suit}.",
        "Musisz dołożyć do koloru: masz {suit}.",
    ),
    Reason.MUST_LEAD_CARD: (
        Status.FAILED_PRECONDITION,
        "You must lead {required}.",
        "Du musst {required} ausspielen.",
        "Musisz wyjść kartą {required}.",
    ),
    Reason.MUST_PICK_UP: (
        Status.FAILED_PRECONDITION,
        "You cannot follow suit, so you must pick up the trick.",
        "Du kannst nicht bedienen und musst den Stich aufnehmen.",
        "Nie możesz dołożyć do koloru, więc musisz podnieść lewę.",
    ),
    Reason.PICKUP_NOT_ALLOWED: (
        Status.FAILED_PRECONDITION,
        "You may not pick up now.",
        "Du darfst jetzt nicht aufnehmen.",
        "Nie możesz teraz podnieść.",
    ),
    Reason.TAKE_HAND_NOT_ALLOWED: (
        Status.FAILED_PRECONDITION,
        "You may not take a hand now.",
        "Du darfst jetzt keine Karten nehmen.",
        "Nie możesz teraz wziąć kart.",
    ),
    Reason.ACTION_NOT_ALLOWED: (
        Status.FAILED_PRECONDITION,
        "That is not one of your legal actions now.",
        "Das ist jetzt keiner deiner erlaubten Züge.",
        "To nie jest teraz jeden z twoich dozwolonych ruchów.",
    ),
    Reason.BAD_RULEBOOK_REQUEST: (
        Status.INVALID_ARGUMENT,
        "There is no rulebook with {field} {value}; there are: {choices}.",
        "Es gibt kein Regelbuch mit {field} {value}; möglich sind: {choices}.",
        "Nie ma podręcznika z {field} {value}; dostępne są: {choices}.",
    ),
    # --- the referee's own ---
    Reason.STALE_SEQ: (
        Status.ABORTED,
        "The table moved on (latest event {last_seq}, you decided on {expected_seq}); "
        "look again and decide anew.",
        "Am Tisch ist inzwischen etwas passiert (letztes Ereignis {last_seq}, du hast bei "
        "{expected_seq} entschieden); schau noch einmal hin.",
        "Przy stole coś się zmieniło (ostatnie zdarzenie {last_seq}, decyzja przy "
        "{expected_seq}); spójrz jeszcze raz.",
    ),
    Reason.REQUEST_ID_REUSED: (
        Status.INVALID_ARGUMENT,
        "This request_id was already used for a different action.",
        "Diese request_id wurde schon für eine andere Aktion benutzt.",
        "Ten request_id został już użyty dla innej akcji.",
    ),
    Reason.MISSING_REQUEST_ID: (
        Status.INVALID_ARGUMENT,
        "Every action needs a request_id.",
        "Jede Aktion braucht eine request_id.",
        "Każda akcja potrzebuje request_id.",
    ),
    Reason.BAD_ACTION: (
        Status.INVALID_ARGUMENT,
        "That is not an action: {detail}",
        "Das ist keine Aktion: {detail}",
        "To nie jest akcja: {detail}",
    ),
    Reason.UNAUTHENTICATED: (
        Status.UNAUTHENTICATED,
        "A seat credential is needed: send `authorization: Bearer <seat_token>`.",
        "Ein Platz-Schlüssel ist nötig: sende `authorization: Bearer <seat_token>`.",
        "Potrzebny jest klucz miejsca: wyślij `authorization: Bearer <seat_token>`.",
    ),
    Reason.BAD_CREDENTIAL: (
        Status.UNAUTHENTICATED,
        "This seat credential is not valid for this table.",
        "Dieser Platz-Schlüssel gilt nicht für diesen Tisch.",
        "Ten klucz miejsca nie jest ważny przy tym stole.",
    ),
    Reason.TABLE_NOT_FOUND: (
        Status.NOT_FOUND,
        "There is no table {table_id}.",
        "Es gibt keinen Tisch {table_id}.",
        "Nie ma stołu {table_id}.",
    ),
    Reason.RULESET_NOT_FOUND: (
        Status.NOT_FOUND,
        "There is no ruleset {ruleset_id}.",
        "Es gibt kein Regelwerk {ruleset_id}.",
        "Nie ma zestawu zasad {ruleset_id}.",
    ),
    Reason.RULESET_EXISTS: (
        Status.ALREADY_EXISTS,
        "A ruleset {ruleset_id} exists already.",
        "Ein Regelwerk {ruleset_id} gibt es schon.",
        "Zestaw zasad {ruleset_id} już istnieje.",
    ),
    Reason.INVALID_RULESET: (
        Status.INVALID_ARGUMENT,
        "The ruleset has problems: {detail}",
        "Das Regelwerk hat Fehler: {detail}",
        "Zestaw zasad ma błędy: {detail}",
    ),
    Reason.REGISTER_NOT_ALLOWED: (
        Status.PERMISSION_DENIED,
        "This referee does not register rulesets (start it with --allow-register).",
        "Dieser Schiedsrichter nimmt keine Regelwerke an (Start mit --allow-register).",
        "Ten sędzia nie rejestruje zestawów zasad (uruchom z --allow-register).",
    ),
    Reason.PLAYERS_NOT_ALLOWED: (
        Status.INVALID_ARGUMENT,
        "{detail}",
        "{detail}",
        "{detail}",
    ),
    Reason.BAD_TABLE_SETTINGS: (
        Status.INVALID_ARGUMENT,
        "Bad table settings: {detail}",
        "Ungültige Tisch-Einstellungen: {detail}",
        "Błędne ustawienia stołu: {detail}",
    ),
    Reason.BAD_PLAYER_NAME: (
        Status.INVALID_ARGUMENT,
        "That player name cannot be used: {detail}",
        "Dieser Spielername geht nicht: {detail}",
        "Tej nazwy gracza nie można użyć: {detail}",
    ),
    Reason.BAD_PAGE_TOKEN: (
        Status.INVALID_ARGUMENT,
        "This page cannot be listed: {detail}.",
        "Diese Seite kann nicht aufgelistet werden: {detail}.",
        "Tej strony nie można wyświetlić: {detail}.",
    ),
    Reason.TEST_MODE_REQUIRED: (
        Status.PERMISSION_DENIED,
        "An explicit deal is allowed only on a referee started with --test-mode.",
        "Ein festgelegtes Austeilen ist nur im Testmodus (--test-mode) erlaubt.",
        "Ustalone rozdanie jest dozwolone tylko w trybie testowym (--test-mode).",
    ),
    Reason.SEAT_TAKEN: (
        Status.FAILED_PRECONDITION,
        "Seat {seat} is taken.",
        "Platz {seat} ist besetzt.",
        "Miejsce {seat} jest zajęte.",
    ),
    Reason.TABLE_FULL: (
        Status.FAILED_PRECONDITION,
        "The table is full.",
        "Der Tisch ist voll.",
        "Stół jest pełny.",
    ),
    Reason.TABLE_NOT_OPEN: (
        Status.FAILED_PRECONDITION,
        "The table has started; seats can no longer be taken or given up.",
        "Das Spiel hat begonnen; Plätze können nicht mehr genommen oder abgegeben werden.",
        "Gra się zaczęła; nie można już zajmować ani zwalniać miejsc.",
    ),
    Reason.TABLE_NOT_FULL: (
        Status.FAILED_PRECONDITION,
        "Every seat must be taken before the table starts ({free} free).",
        "Alle Plätze müssen besetzt sein, bevor das Spiel beginnt ({free} frei).",
        "Wszystkie miejsca muszą być zajęte przed rozpoczęciem ({free} wolnych).",
    ),
    Reason.TABLE_NOT_PLAYING: (
        Status.FAILED_PRECONDITION,
        "The table is not playing.",
        "An diesem Tisch wird nicht gespielt.",
        "Przy tym stole nie trwa gra.",
    ),
    Reason.HAND_NOT_FOUND: (
        Status.NOT_FOUND,
        "Hand {hand_number} has not been played at this table.",
        "Runde {hand_number} wurde an diesem Tisch nicht gespielt.",
        "Rozdanie {hand_number} nie było rozgrywane przy tym stole.",
    ),
    Reason.HAND_NOT_OVER: (
        Status.FAILED_PRECONDITION,
        "Hand {hand_number} is not over yet; its hidden cards stay hidden.",
        "Runde {hand_number} ist noch nicht vorbei; verdeckte Karten bleiben verdeckt.",
        "Rozdanie {hand_number} jeszcze trwa; zakryte karty pozostają zakryte.",
    ),
    Reason.BAD_AFTER_SEQ: (
        Status.INVALID_ARGUMENT,
        "after_seq {after_seq} is beyond the table's latest event {last_seq}.",
        "after_seq {after_seq} liegt hinter dem letzten Ereignis {last_seq}.",
        "after_seq {after_seq} jest dalej niż ostatnie zdarzenie {last_seq}.",
    ),
    Reason.UNAVAILABLE: (
        Status.UNAVAILABLE,
        "The referee is shutting down; try again shortly.",
        "Der Schiedsrichter fährt herunter; bitte gleich noch einmal versuchen.",
        "Sędzia się wyłącza; spróbuj ponownie za chwilę.",
    ),
    Reason.BAD_REQUEST: (
        Status.INVALID_ARGUMENT,
        "The request is not a valid {type_name} message: {detail}.",
        "Die Anfrage ist keine gültige {type_name}-Nachricht: {detail}.",
        "Żądanie nie jest poprawną wiadomością {type_name}: {detail}.",
    ),
    Reason.STORE_UNAVAILABLE: (
        Status.UNAVAILABLE,
        "The referee cannot reach its store ({detail}); retry with the same request_id.",
        "Der Schiedsrichter erreicht seinen Speicher nicht ({detail}); bitte mit derselben"
        " request_id wiederholen.",
        "Sędzia nie ma dostępu do swojej bazy ({detail}); ponów z tym samym request_id.",
    ),
    Reason.TABLE_BUSY: (
        Status.ABORTED,
        "Other referees kept changing this table while your request was checked; try again.",
        "Andere Schiedsrichter haben diesen Tisch während der Prüfung ständig geändert;"
        " bitte noch einmal versuchen.",
        "Inni sędziowie ciągle zmieniali ten stół podczas sprawdzania; spróbuj ponownie.",
    ),
    # --- limits (referee.server.limits) ---
    Reason.TOO_MANY_TABLES: (
        Status.RESOURCE_EXHAUSTED,
        "This referee already hosts {limit} tables that are open or in play; join one, or"
        " try again when a game has ended.",
        "Dieser Schiedsrichter führt schon {limit} offene oder laufende Tische; setz dich an"
        " einen davon oder versuch es wieder, wenn ein Spiel zu Ende ist.",
        "Ten sędzia prowadzi już {limit} otwartych lub trwających stołów; dołącz do jednego"
        " albo spróbuj ponownie, gdy jakaś gra się skończy.",
    ),
    Reason.TOO_MANY_STREAMS: (
        Status.RESOURCE_EXHAUSTED,
        "This credential already has {limit} event streams open; close one first.",
        "Für diesen Berechtigungsnachweis sind schon {limit} Ereignisströme offen; schließ"
        " zuerst einen.",
        "Te poświadczenia mają już otwartych {limit} strumieni zdarzeń; najpierw zamknij jeden.",
    ),
    Reason.RATE_LIMITED: (
        Status.RESOURCE_EXHAUSTED,
        "Too many actions from this seat (at most {rate} a second); retry in {retry_ms} ms"
        " with the same request_id.",
        "Zu viele Aktionen von diesem Platz (höchstens {rate} pro Sekunde); in {retry_ms} ms"
        " mit derselben request_id wiederholen.",
        "Za dużo ruchów z tego miejsca (najwyżej {rate} na sekundę); ponów za {retry_ms} ms"
        " z tym samym request_id.",
    ),
    Reason.CREATE_RATE_LIMITED: (
        Status.RESOURCE_EXHAUSTED,
        "Too many tables created from here (at most {rate} a minute); retry in {retry_ms} ms.",
        "Zu viele Tische von hier aus angelegt (höchstens {rate} pro Minute); in {retry_ms} ms"
        " noch einmal versuchen.",
        "Za dużo stołów założonych stąd (najwyżej {rate} na minutę); ponów za {retry_ms} ms.",
    ),
    Reason.UPLOAD_RATE_LIMITED: (
        Status.RESOURCE_EXHAUSTED,
        "Too many rulesets sent from here (at most {rate} a minute); retry in {retry_ms} ms.",
        "Zu viele Regelwerke von hier aus geschickt (höchstens {rate} pro Minute); in"
        " {retry_ms} ms noch einmal versuchen.",
        "Za dużo zestawów zasad wysłanych stąd (najwyżej {rate} na minutę); ponów za"
        " {retry_ms} ms.",
    ),
    Reason.VALIDATION_BUSY: (
        Status.RESOURCE_EXHAUSTED,
        "The referee is checking {limit} rulesets already; retry in {retry_ms} ms.",
        "Der Schiedsrichter prüft schon {limit} Regelwerke; in {retry_ms} ms noch einmal"
        " versuchen.",
        "Sędzia sprawdza już {limit} zestawów zasad; ponów za {retry_ms} ms.",
    ),
    Reason.BAD_ANALYSIS_REQUEST: (
        Status.INVALID_ARGUMENT,
        "Bad analysis request: {detail}",
        "Ungültige Analyse-Anfrage: {detail}",
        "Błędne zlecenie analizy: {detail}",
    ),
    Reason.ANALYSIS_BUSY: (
        Status.RESOURCE_EXHAUSTED,
        "Every place for an analysis is taken (at most {limit} at a time, one per client);"
        " retry in {retry_ms} ms.",
        "Alle Plätze für Analysen sind belegt (höchstens {limit} zugleich, eine pro Client);"
        " in {retry_ms} ms noch einmal versuchen.",
        "Wszystkie miejsca na analizy są zajęte (najwyżej {limit} naraz, jedna na klienta);"
        " ponów za {retry_ms} ms.",
    ),
    Reason.BAD_BOT_KEY: (
        Status.INVALID_ARGUMENT,
        "A bot key is {shortest} to {longest} printable ASCII characters without spaces.",
        "Ein Bot-Schlüssel hat {shortest} bis {longest} druckbare ASCII-Zeichen ohne Leerzeichen.",
        "Klucz bota ma od {shortest} do {longest} drukowalnych znaków ASCII bez spacji.",
    ),
    Reason.BOT_NOT_WAITING: (
        Status.FAILED_PRECONDITION,
        "No bot waits under this key on this referee; start the bot first.",
        "Unter diesem Schlüssel wartet bei diesem Schiedsrichter kein Bot; starte zuerst den Bot.",
        "Żaden bot nie czeka pod tym kluczem u tego sędziego; najpierw uruchom bota.",
    ),
    Reason.BOT_ALREADY_WAITING: (
        Status.ALREADY_EXISTS,
        "Another bot waits under this key already; stop it, or choose another key.",
        "Unter diesem Schlüssel wartet schon ein anderer Bot; beende ihn oder wähle einen"
        " anderen Schlüssel.",
        "Pod tym kluczem czeka już inny bot; zatrzymaj go albo wybierz inny klucz.",
    ),
    Reason.ANALYSIS_TOO_COSTLY: (
        Status.RESOURCE_EXHAUSTED,
        "The analysis took more than {limit} s of the referee's time; ask for fewer hands or"
        " player counts, or without the skill measured.",
        "Die Analyse hat mehr als {limit} s gedauert; frag nach weniger Händen oder"
        " Spielerzahlen, oder ohne die Messung des Könnens.",
        "Analiza trwała dłużej niż {limit} s; poproś o mniej rozdań lub liczb graczy albo"
        " bez pomiaru umiejętności.",
    ),
    Reason.RULESET_TOO_COSTLY: (
        Status.RESOURCE_EXHAUSTED,
        "Checking this ruleset took more than {limit} s of the referee's time; make it smaller.",
        "Die Prüfung dieses Regelwerks hat mehr als {limit} s gedauert; mach es kleiner.",
        "Sprawdzanie tego zestawu zasad trwało dłużej niż {limit} s; zmniejsz go.",
    ),
}

LANGUAGES = ("en", "de", "pl")

SUIT_WORDS = {
    "en": {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"},
    "de": {"C": "Kreuz", "D": "Karo", "H": "Herz", "S": "Pik"},
    "pl": {"C": "trefle", "D": "karo", "H": "kiery", "S": "piki"},
}


class Refusal(Exception):
    """A request the referee refuses; nothing was changed."""

    def __init__(
        self,
        reason: Reason,
        *,
        detail: str = "",
        legal_actions: list[str] | None = None,
        **params: Any,
    ) -> None:
        self.reason = reason
        self.status = MESSAGES[reason][0]
        self.detail = detail
        self.params = {"detail": detail, **params}
        self.legal_actions = legal_actions
        super().__init__(self.message("en"))

    def message(self, language: str) -> str:
        """The human message in ``language`` (en, de or pl; English otherwise)."""
        index = LANGUAGES.index(language) + 1 if language in LANGUAGES else 1
        template = MESSAGES[self.reason][index]
        params = dict(self.params)
        suit = params.get("suit")
        if isinstance(suit, str) and suit in SUIT_WORDS["en"]:
            params["suit"] = SUIT_WORDS[language if language in LANGUAGES else "en"][suit]
        try:
            return template.format(**params)
        except (KeyError, IndexError):
            return template
