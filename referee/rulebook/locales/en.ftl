## The rulebook of a Bhabhi ruleset, in English.
##
## Translators: copy this file to LANG.ftl (de.ftl, pl.ftl) and translate every message; keep
## the ids and the variable names. A message that states an option is named after the
## option and its value (off-suit-play-tochoo is `off_suit.play: tochoo`); rule-… messages
## are rules no option changes; section-… are headings. Clause IDs (C1, B8, H17) are added
## by the program: never write them here. Numbers are numbers: write plural forms with
## selectors, { $count -> [one] … *[other] … } (add [few] and [many] where your language has
## them). Cards, suits and ranks are written by card-name, suit-name and rank-name below.
## The game's words: trick, lead, follow suit, pick up, tochoo, waste pile, the power, seat.

## Cards. $rank is a word (two … ten, jack, queen, king, ace), $number the number of a
## number card (0 for a face card or an ace), $suit a word (clubs, diamonds, hearts, spades),
## $symbol the suit's symbol (♣ ♦ ♥ ♠).

rank-name = { $rank ->
    [jack] Jack
    [queen] Queen
    [king] King
    [ace] Ace
   *[other] { $number }
  }

rank-short = { $rank ->
    [jack] J
    [queen] Q
    [king] K
    [ace] A
   *[other] { $number }
  }

suit-name = { $suit ->
    [clubs] clubs
    [diamonds] diamonds
    [hearts] hearts
   *[spades] spades
  }

# "the Ace of spades (A♠)"
card-name = the { rank-name } of { suit-name } ({ rank-short }{ $symbol })

## The book: its title, the headings of its sections, and what the renderers print.

# $title: the ruleset's name ("Bhabho / Laad").
rulebook-title = How to play { $title }
section-differences = How this differs from { $base }
section-game = The game
section-cards = The cards
section-deal = The deal
section-first-trick = The first trick
section-following = Following suit
section-leading = Who leads next
section-getting-out = Getting out, and two players left
section-taking = Taking a hand
section-end = The end of a hand
section-session = Sessions, counts and chips
section-table = Playing with the referee
section-sources = Where these rules come from
section-glossary = Names of the game
section-clauses = Clauses
contents = Contents
# At the foot of the page. $id: the ruleset's id; $hash: its SHA-256; $version: the program's.
footer = Ruleset { $id }, hash { $hash }. Written by bhabhi-as-data { $version } from the same rules the referee plays.
clauses-intro = Each rule above names the clauses of the project's catalogue that it states. Their text (in English):

## How a house variant differs from its base. $base: the base ruleset's name.

differences-intro = These rules are { $base } with the changes below. The rest of this book gives the whole game, changes included.
differences-none = These rules are the same as { $base }.

## The game and its players.

rule-game-goal = Bhabhi is a game of tricks in which you try to get rid of your cards. A player whose hand is empty is out and safe. The last player still holding cards is the Bhabhi and loses the hand.
# $description: the ruleset's own summary, in this language.
ruleset-description = { $description }
players-range = { $min } to { $max ->
    [one] { $max } player
   *[other] { $max } players
  } can play.
players-exact = { $count ->
    [one] This game is for one player.
   *[other] This game is for exactly { $count } players.
  }
players-teams-none = Everyone plays for themselves.
players-teams-partners-opposite = Players form teams of two, with partners sitting opposite each other, so the number of players must be even. The team whose player ends up as the Bhabhi loses the hand.
direction-clockwise = The cards are dealt and played clockwise, to the left.
direction-counterclockwise = The cards are dealt and played counterclockwise, to the right.

## The cards. $order: the ranks from high to low; $ranks: the ranks present.

deck-packs = { $count ->
    [one] Use one pack of cards without jokers.
   *[other] Shuffle { $count } packs together, without jokers, so that every card is in the game { $count } times.
  } There are four suits: clubs ♣, diamonds ♦, hearts ♥ and spades ♠.
deck-ranks-all = Every suit has all { $count } cards.
deck-ranks-some = Every suit has only { $count ->
    [one] one card: { $ranks }.
   *[other] these { $count } cards: { $ranks }.
  } The others are left out of the pack.
deck-ace-high = The cards of a suit rank, from high to low: { $order }. The Ace is high.
deck-ace-low = The cards of a suit rank, from high to low: { $order }. The Ace is low.
deck-identical-cards-first-played = When two identical cards fall in the same trick, the one played first ranks higher.
deck-identical-cards-last-played = When two identical cards fall in the same trick, the one played last ranks higher.

## The deal. $seat: a seat number (seats are numbered clockwise from 0).

deal-first-dealer = The players agree who deals first; at the referee's table it is the player in seat { $seat }, and seats are numbered clockwise from 0.
deal-order-with-play = The dealer deals the cards one at a time, starting with the next player in the direction of play.
deal-order-seat-order = The dealer deals the cards one at a time clockwise, starting with the player on their left, whichever way play goes.
deal-remainder-deal-out = The whole pack is dealt, so some players may get one card more than others. That is normal.
# $lowest: the lowest rank ("2", or "Ace" when Aces are low).
deal-remainder-remove-lowest = So that every player gets the same number of cards, first take out the lowest cards that would not go round evenly: the { $lowest }s first, clubs before diamonds, hearts and spades. They are out of play, face up for all to see.
deal-dealer-moves-clockwise = After each hand the deal passes to the left, clockwise.
deal-dealer-moves-counterclockwise = After each hand the deal passes to the right, counterclockwise.
deal-dealer-moves-with-play = After each hand the deal passes to the next player in the direction of play.
deal-dealer-moves-bhabhi-deals = The Bhabhi of each hand deals the next one. After a hand without a Bhabhi, the deal passes on in the direction of play.
deal-dealer-moves-last-picker-deals = The last player to pick up cards in a hand deals the next one. If nobody picked up, the deal passes on in the direction of play.
rule-redeal = For every hand the whole pack is shuffled again and dealt to all the players.

## The first trick. $card: the lead card ("the Ace of spades (A♠)"); $suit: its suit.

first-lead-leads-the-card = The player who holds { $card } leads it to the first trick.
first-lead-leads-any-card = The player who holds { $card } leads the first trick, and may lead any card.
first-lead-if-absent-highest-of-suit = { $dealt ->
    [yes] Every deal includes { $card }. Were it ever missing, the player with the highest card of { $suit } would lead that card instead, and if nobody had { $suit }, the player after the dealer would lead any card.
   *[no] If { $card } is not in play, the player with the highest card of { $suit } leads it; if nobody has { $suit }, the player after the dealer leads any card.
  }
first-lead-if-absent-player-after-dealer = { $dealt ->
    [yes] Every deal includes { $card }. Were it ever missing, the player after the dealer would lead any card.
   *[no] If { $card } is not in play, the player after the dealer leads any card.
  }
rule-lead-card-first-pack = With more than one pack, { $card } is in the game more than once: only the copy from the first pack opens the first trick, and the referee, who tells the packs apart, knows who holds it. The other copies are ordinary cards.
first-trick-off-suit-as-other-tricks = The first trick is played like any other.
first-trick-off-suit-discard = { $penalty ->
    [yes] On the first trick everybody plays one card, following suit if they can. Unless a penalty below applies, nothing ends the first trick early and nobody picks it up: its cards go face down to start the waste pile. A penalty also decides who leads next. The rules let players play to this trick without waiting for their turn, but at the referee's table you play in turn, and a card played out of turn is dealt with as on any other trick.
   *[no] On the first trick everybody plays one card, following suit if they can. Nothing ends the first trick early, nobody picks it up, and all its cards go face down to start the waste pile. The rules let players play to this trick without waiting for their turn; at the referee's table they still play in turn.
  }
first-trick-void-plays-any = { $tochoo ->
    [yes] On the first trick too, a player who cannot follow suit plays any other card as a tochoo, as on any other trick.
   *[no] On the first trick, a player who cannot follow suit may play any card.
  }
first-trick-void-plays-highest = On the first trick, a player who cannot follow suit must play one of their highest cards, of any suit.
first-trick-next-leader-as-other-tricks = { $discarded ->
     [yes] For who leads the second trick, the first trick counts as a clean trick, even with cards of other suits in it.
    *[no] The second trick is led as after any other trick.
  }
first-trick-next-leader-first-leader = The player who led the first trick leads the second as well.

## Following suit.

rule-follow-suit = The leader may lead any card, face up. The others play in turn, each one card face up, and must follow suit: play a card of the suit led if they have one. Which card of that suit is up to them.
rule-trick-complete = { $waste ->
    [yes] When everybody has played, the highest card of the suit led wins, and the trick's cards go face down onto the waste pile.
   *[no] When everybody has played, the highest card of the suit led wins, and its player puts the trick's cards face down out of play: they take no further part in the hand.
  }
rule-trick-clean = { $waste ->
    [yes] If everybody follows suit, the trick is clean: the highest card of the suit led wins, and the cards go face down onto the waste pile.
   *[no] If everybody follows suit, the trick is clean: the highest card of the suit led wins, and its player puts the cards face down out of play: they take no further part in the hand.
  }
off-suit-play-pickup = A player who cannot follow suit plays no card. Instead they pick up the cards played to the trick so far and add them to their hand. That ends the trick.
off-suit-play-discard = A player who cannot follow suit plays any card as a discard. A discard can never win the trick, and play goes on.
off-suit-play-tochoo = A player who cannot follow suit plays any other card: a tochoo, also called a thulla. The tochoo ends the trick at once; the players after them do not play to it.
off-suit-play-tochoo-plays-on = A player who cannot follow suit plays any other card: a tochoo, also called a thulla. The trick goes on all the same, and everybody plays to it. A trick with a tochoo in it is picked up at the end; a trick without one is clean.
off-suit-tochoo-picked-up-by-highest-of-led = After a tochoo, the player of the highest card of the suit led picks up every card of the trick, the tochoo included.
off-suit-tochoo-picked-up-by-tochoo-player = After a tochoo, the player who played it picks up every card of the trick, the tochoo included (the first tochoo, if there are several).
off-suit-pickup-takes-trick = Whoever picks up takes the cards of that trick only.
off-suit-pickup-takes-trick-and-waste = Whoever picks up takes the cards of that trick and the whole waste pile as well.

## Trumps. $suit: the trump suit.

trump-none = There is no trump suit.
trump-first-off-suit-card = There is no trump suit at first. The first card played by a player who cannot follow suit makes its suit trumps for the rest of the hand; that card itself still counts as an ordinary off-suit card.
trump-fixed = Trumps are { $suit }, in every hand.
trump-dealer-choice = Before the first lead, the dealer names the trump suit; nothing else happens until they have.
rule-trump-beats = Once there is a trump suit, a trump played by a player who cannot follow suit does not end the trick: play goes on, and the highest trump beats every card of the suit led. It wins the trick, or picks it up after a tochoo.
rule-trump-high = Wherever these rules speak of the highest card of the suit led, a trump in the trick comes first: the player of the highest trump wins the trick, or picks it up, and leads the next one in their place.

## Cards played against the rules.

illegal-play-reject = Not following suit when you could is not allowed: the referee refuses the card and nothing changes. Play a card of the suit led instead.
illegal-play-pickup-penalty = A player who does not follow suit when they could takes the card back and picks up the trick, which ends it.
illegal-play-challenge = A player may play an off-suit card even though they could follow suit (a false tochoo). It plays like any other off-suit card, but right after the trick any other player still in the hand may challenge it. A wrong challenge costs nothing.
false-tochoo-penalty-bhabhi = If the challenge is right, the hand ends at once and the player of the false card is the Bhabhi.
false-tochoo-penalty-pickup-and-lead = If the challenge is right, the player of the false card picks up the cards of that trick, from whoever picked them up or from the waste pile, and leads the next trick.
out-of-turn-refuse = A card played out of turn is refused, and nothing changes.
out-of-turn-pickup-penalty = A player who plays out of turn, or plays to a trick a tochoo has already ended, keeps the card, picks up that trick and leads the next one.

## Who leads next.

next-leader-after-complete-trick-highest = { $trick ->
     [every] After every trick, the player of the highest card of the suit led wins it and leads the next trick.
    *[clean] { $power ->
        [yes] After a clean trick, the player of the highest card of the suit led has the power and leads the next trick.
       *[no] After a clean trick, the player of the highest card of the suit led wins it and leads the next trick.
      }
  }
next-leader-after-complete-trick-lowest = { $trick ->
     [every] After every trick, the player of the lowest card of the suit led leads the next trick.
    *[clean] After a clean trick, the player of the lowest card of the suit led leads the next trick.
  }
next-leader-after-pickup-picker = After a trick that was picked up, the player who picked it up leads the next trick.
next-leader-after-pickup-highest = { $power ->
    [yes] After a trick that was picked up, the player of the highest card of the suit led has the power and leads the next trick.
   *[no] After a trick that was picked up, the player of the highest card of the suit led leads the next trick.
  }
next-leader-after-pickup-lowest = After a trick that was picked up, the player of the lowest card of the suit led leads the next trick.
next-leader-after-pickup-tochoo-player = After a trick that was picked up, the player who played the tochoo leads the next trick.
next-leader-if-out-next-in-turn = If the player due to lead has no cards left, they are out and safe, and the next player in turn who still has cards leads.
next-leader-if-out-draws-from-waste = You cannot get away with the power. If your last card wins a clean trick, you must still lead the next one: before the trick goes onto the waste pile, draw a card from the face-down waste pile and lead it. If someone plays higher in that suit, you are out and safe; if not, you lead again, from the cards you picked up after a tochoo, or else by drawing again.
next-leader-if-out-draws-from-player = You cannot get away with the power. If your last card wins a clean trick, draw one card at random from another player's hand and lead it. If that was the other player's last card, they have got away.
next-leader-if-out-next-highest = If the player who should lead has no cards left, the player of the next-highest card of the suit led who still has cards leads, and so on down the trick. If none of them has cards, or after a pickup, the next player in turn who still has cards leads.
next-leader-draw-pile-waste = You draw from the waste pile as it was before the trick just played.
next-leader-draw-pile-waste-and-trick = The cards of the trick just played go onto the waste pile first, so you may draw one of them back.
next-leader-draw-random = The card is drawn at random from the shuffled pile.
next-leader-draw-top = You draw the top card of the waste pile, the last card to go onto it.
next-leader-if-waste-empty-goes-out = If the waste pile is empty, you get away after all, and the next player in turn who still has cards leads.
next-leader-if-waste-empty-draws-from-trick = If the waste pile is empty, the trick just played goes onto it first, and you draw from its cards.
next-leader-draw-from-next-active = You draw from the next player in turn who still has cards.
next-leader-draw-from-chosen = You choose whom to draw from; with only one other player left, you draw from them.

## Getting out, and two players left.

rule-going-out = A player whose hand is empty at the end of a trick is out: they are safe and take no further part in the hand.
rule-same-trick-out = Players who go out on the same trick are all safe.
end-two-left-pickup-loses-true = With two players left, a trick that has to be picked up ends the hand: the player who must pick it up is the Bhabhi.
end-two-left-pickup-loses-false = { $shootout ->
    [yes] With two players left, a trick that is picked up does not end the hand by itself; play goes on, except in the shootout below.
   *[no] With two players left, a trick that is picked up does not end the hand by itself; play goes on.
  }
end-two-left-tochoo-wins-true = With two players left, a tochoo ends the hand at once: the player of the tochoo is safe and the other player is the Bhabhi.
end-two-left-tochoo-wins-false = { $shootout ->
    [yes] With two players left, a tochoo counts as at any other time, except in the shootout below.
   *[no] With two players left, a tochoo counts as at any other time.
  }
end-shootout-none = With two players left there is no shootout: play goes on as before.
end-shootout-after-waste-draw = The shootout: with two players left, if you lead the card you have just drawn and the other player cannot follow suit, the hand ends at once. You are the Bhabhi and the other player is safe.
end-shootout-any-last-card = The shootout: with two players left, if you lead your last card and the other player cannot follow suit, the hand ends at once. You are the Bhabhi and the other player is safe.
end-two-left-power-escapes-true = With two players left, a player whose last card wins a clean trick gets away at once without drawing, and the other player is the Bhabhi.
end-two-left-power-escapes-false = With two players left, the power works as at any other time.

## Taking a hand.

take-hand-when-never = Nobody may take another player's hand.
take-hand-when-before-any-trick = Before any trick, any player who still has cards may take another player's whole hand into their own. The player whose cards are taken has got away and cannot lose.
take-hand-when-leader-before-trick = Only the player about to lead may take another player's whole hand, just before leading. The player whose cards are taken has got away and cannot lose.
take-hand-when-after-neighbour-tochoo = A neighbour who makes you pick up with their tochoo owes you their hand: before the next trick, and only then, you may take their whole hand into yours. A debt not claimed before that trick lapses. The player whose cards are taken has got away and cannot lose.
take-hand-from-left = You take from the player on your immediate left, or, if they are out, from the next player clockwise who still has cards.
take-hand-from-right = You take from the player on your immediate right, or, if they are out, from the next player counterclockwise who still has cards.
take-hand-from-next-in-turn = You take from the next player in turn who still has cards.
take-hand-from-either-neighbour = You choose: the nearest player still in on your left, or the nearest on your right.
take-hand-from-any-player = You may take from any player who still has cards, and say whom.
take-hand-per-trick-one = Only one hand may be taken before each trick: the first claim counts.
take-hand-per-trick-any = Several hands may be taken before the same trick, one after another, in the order they are claimed.
take-hand-per-trick-pass-in-turn = Before each trick, a take goes once round the table from the leader, in the direction of play. Each player who could take is asked in turn and must take or pass; nobody takes twice in one round.
take-hand-lead-passes-to-taker = If the player due to lead has their hand taken, the taker leads.
take-hand-lead-passes-to-next-in-turn = If the player due to lead has their hand taken, the next player in turn who still has cards leads.
take-hand-consent-true = Taking is a request: the player whose hand is asked for must agree or refuse before anyone plays on. After a refusal nothing changes, and the same player may not ask them again before this trick.
take-hand-consent-false = Nobody needs to agree to having their hand taken.
take-hand-before-first-trick-true = Hands may be taken before the first trick too.
take-hand-before-first-trick-false = No hand may be taken before the first trick.
take-hand-with-two-left-true = A hand may be taken even when only two players are left, though the taker is then the Bhabhi.
take-hand-with-two-left-false = Once only two players are left, no hand may be taken.

## The end of a hand. $count: a number of tricks.

rule-bhabhi-loses = When all players but one are out, the one still holding cards is the Bhabhi and loses the hand. Everyone else wins it; cards do not score points.
end-all-out-together-no-bhabhi = { $never ->
    [yes] The last players cannot all go out on the same trick: whoever wins it has the power and cannot get away, so with everyone else out they are the Bhabhi, even holding no card. (The rule for a hand in which nobody is left holding cards, that nobody is the Bhabhi, therefore never comes into play.)
   *[no] If the last players all go out on the same trick, so that nobody is left holding cards, nobody is the Bhabhi: the hand has no loser.
  }
end-all-out-together-last-to-play = { $never ->
    [yes] The last players cannot all go out on the same trick: whoever wins it has the power and cannot get away, so with everyone else out they are the Bhabhi, even holding no card. (The rule for a hand in which nobody is left holding cards, that the last of them to play a card is the Bhabhi, therefore never comes into play.)
   *[no] If the last players all go out on the same trick, so that nobody is left holding cards, the last of them to play a card is the Bhabhi.
  }
end-all-out-together-trick-winner = { $never ->
    [yes] The last players cannot all go out on the same trick: whoever wins it has the power and cannot get away, so with everyone else out they are the Bhabhi, even holding no card. (The rule for a hand in which nobody is left holding cards, that the player of the highest card of the suit led is the Bhabhi, therefore never comes into play.)
   *[no] If the last players all go out on the same trick, so that nobody is left holding cards, the player of the highest card of the suit led is the Bhabhi.
  }
end-at-dead-position-no-bhabhi = { $detected ->
    [yes] A hand can reach a point where nobody can ever go out again, whatever anyone plays. The referee sees this at the end of a trick, and the hand ends there with no Bhabhi.
   *[no] Under these rules the referee does not look for a point where nobody can ever go out again: the limit below ends any hand that does not end by itself. (The ruleset's rule for such a point, that the hand ends there with no Bhabhi, therefore never comes into play.)
  }
end-at-dead-position-most-cards = { $detected ->
    [yes] A hand can reach a point where nobody can ever go out again, whatever anyone plays. The referee sees this at the end of a trick, and the hand ends there: the player holding the most cards is the Bhabhi (if several tie for most, nobody is).
   *[no] Under these rules the referee does not look for a point where nobody can ever go out again: the limit below ends any hand that does not end by itself. (The ruleset's rule for such a point, that the player holding the most cards is the Bhabhi, therefore never comes into play.)
  }
end-at-dead-position-play-on = A hand can reach a point where nobody can ever go out again, whatever anyone plays. It is played on all the same, up to the limit below.
end-max-tricks = A hand lasts at most { $count ->
    [one] one trick.
   *[other] { $count } tricks.
  }
end-at-max-tricks-no-bhabhi = A hand that reaches this limit is void: nobody is the Bhabhi.
end-at-max-tricks-most-cards = When a hand reaches this limit, the player holding the most cards is the Bhabhi (if several tie for most, nobody is).

## Sessions, counts and chips. $count: a number of hands, of times, of chips.

session-hands = { $count ->
    [one] A session is a single hand.
   *[other] A session is { $count } hands.
  }
session-hands-none = A session has no set number of hands.
session-bhabhi-limit = The session ends as soon as a player has been the Bhabhi { $count ->
    [one] once.
   *[other] { $count } times.
  }
session-bhabhi-limit-none = The session does not end early, however often a player is the Bhabhi.
rule-session-loser = Keep count of how often each player is the Bhabhi: whoever was the Bhabhi most often loses the session.
session-chips = Play for chips, at a stake of { $count ->
    [one] one chip
   *[other] { $count } chips
  }. At the end of the session the player with the fewest losses takes the pot; players who tie share it equally, and what cannot be shared stays in the pot.
session-chips-none = No chips are played for.
session-chips-by-bhabhi = Each Bhabhi pays the stake into the pot.
session-chips-by-card-points = Each Bhabhi pays the stake into the pot for every point of the cards still in their hand: number cards count their number, Jack, Queen and King 10 each, an Ace 1. A Bhabhi with no cards left pays nothing.

## Playing with the referee: the clock and what you can see.

timeout-move-lowest-card = If a player's time runs out, the referee plays their lowest card that may be played{ $pickup ->
    [yes] , or picks up for them if they can play none.
   *[no] .
  }{ $takes ->
    [yes] {" "}The clock never takes a hand.
   *[no] {""}
  }
timeout-move-highest-card = If a player's time runs out, the referee plays their highest card that may be played{ $pickup ->
    [yes] , or picks up for them if they can play none.
   *[no] .
  }{ $takes ->
    [yes] {" "}The clock never takes a hand.
   *[no] {""}
  }
timeout-bot-after = After { $count ->
    [one] one timeout
   *[other] { $count } timeouts in a row
  }, the referee plays for that player at once, without waiting, until they play again themselves.
timeout-bot-after-none = However often a player's time runs out, the referee waits for the clock each time.
hand-sizes-public = Everybody can see how many cards each player holds.
hand-sizes-hidden = You see how many cards you hold, but not how many the others hold. The cards a player picked up face up stay known.

## Worked examples: one trick of a game of the conformance suite, shown under the rule it
## shows. $case: the case's name (not translated); $players: how many play; $plays: the
## cards of the trick in the order played, each written by example-play and joined as a
## list; $seat: a seat number; $count: a number of cards.

example-trick = Example ({ $case }, { $players } players): { $plays }.
example-play = seat { $seat } { rank-short }{ $symbol }
example-clean = Everyone followed suit, and seat { $seat } played the highest card.
example-off-suit = Seat { $seat } could not follow suit and played another card.
example-highest = Seat { $seat } played the highest card of the suit led.
example-trump-highest = Seat { $seat } played the highest trump.
example-tochoo = Seat { $seat } could not follow suit and played a tochoo, which ends the trick.
example-cannot-follow = Seat { $seat } cannot follow suit.
example-picks-up = Seat { $seat } picks up { $count ->
    [one] the card
   *[other] { $count } cards
  }.
example-out = Seat { $seat } has no cards left and is out.
example-leads = Seat { $seat } leads the next trick.
example-bhabhi = Seat { $seat } is the Bhabhi.

## Where these rules come from. $name: a source's title; $follows: what is taken from it (English).

source-named = { $name }
source-follows = { $name }: { $follows }

## Names of the game. Each message is the meaning; its .term is the word itself.

glossary-bhabhi = Hindi and Urdu for "sister-in-law": the loser of a hand, the last player left holding cards. The game itself is often called Bhabhi too.
    .term = Bhabhi
glossary-getaway = The name of the game in Pakistan and among many players abroad, after its aim: to get away, that is, to get rid of all your cards. Also written Get Away.
    .term = Getaway
glossary-thulla = Another name for a tochoo, the off-suit card that ends a trick; in some places the name of the whole game.
    .term = Thulla
glossary-tochoo = An off-suit card played by a player who cannot follow suit. In Bhabho it ends the trick at once, and the trick is picked up.
    .term = Tochoo
glossary-bhabho = The game played with the power: you cannot get away while you have the lead, and you may take your neighbour's hand.
    .term = Bhabho
glossary-laad = Another name for Bhabho.
    .term = Laad
glossary-kazhutha = Malayalam for "donkey": the game as played in Kerala, where the loser is the donkey. Also called Donkey.
    .term = Kazhutha
glossary-vettu = Malayalam for "a cut": the Kerala word for a tochoo.
    .term = Vettu
glossary-haath = Hindi and Urdu for "hand": the cards a player holds, as when you take someone's whole hand.
    .term = Haath
