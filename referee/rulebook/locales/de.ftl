## Die Spielanleitung eines Bhabhi-Regelwerks, auf Deutsch.
##
## Die Ids und Variablen sind die von en.ftl; dort steht, was jede Meldung sagt. Die Wörter
## des Spiels sind die der deutschen Vorlagen: Stich, (Farbe) bedienen, ausspielen, die Macht,
## Tochoo (Thulla), Ablagestapel, aufnehmen, Trumpf, die Bhabhi, Geber, entkommen,
## ausscheiden. Eine Runde ist, was en.ftl "hand" nennt (einmal geben und spielen, bis die
## Bhabhi feststeht); eine Partie ist eine "session", mehrere Runden hintereinander. Die
## Karten, die ein Spieler hält, sind sein Blatt. Wo en.ftl "you" sagt, steht "du".

## Karten. $rank ist ein Wort (two … ten, jack, queen, king, ace), $number die Zahl einer
## Zahlenkarte (0 bei Bildkarten und Assen), $suit ein Wort (clubs, diamonds, hearts, spades),
## $symbol das Farbsymbol (♣ ♦ ♥ ♠).

rank-name = { $rank ->
    [jack] Bube
    [queen] Dame
    [king] König
    [ace] Ass
   *[other] { $number }
  }

rank-short = { $rank ->
    [jack] B
    [queen] D
    [king] K
    [ace] A
   *[other] { $number }
  }

# Die Farben sind Neutra ohne Artikel: "Trumpf ist Herz", "das höchste Pik", "hat niemand Karo".
suit-name = { $suit ->
    [clubs] Kreuz
    [diamonds] Karo
    [hearts] Herz
   *[spades] Pik
  }

# Die Karte mit Artikel, als Wert im Akkusativ: "das Pik-Ass (A♠)", "den Herz-König (K♥)",
# "die Karo-Dame (D♦)", "den Kreuz-Buben (B♣)", "die Karo-10 (10♦)" ("Wer { $card } hat").
# Die anderen Fälle sind Attribute und erreichen jede Meldung mit $card als eigene
# Variablen: { $card-nominative } ("Ist das Pik-Ass nicht im Spiel"), { $card-dative }
# ("mit dem Pik-Ass"). Der Bube ist ein schwaches Nomen (den, dem Buben; der Bube).
card-name = { $rank ->
    [ace] das { suit-name }-Ass
    [king] den { suit-name }-König
    [queen] die { suit-name }-Dame
    [jack] den { suit-name }-Buben
   *[other] die { suit-name }-{ $number }
  } ({ rank-short }{ $symbol })
    .nominative = { $rank ->
        [ace] das { suit-name }-Ass
        [king] der { suit-name }-König
        [queen] die { suit-name }-Dame
        [jack] der { suit-name }-Bube
       *[other] die { suit-name }-{ $number }
      } ({ rank-short }{ $symbol })
    .dative = { $rank ->
        [ace] dem { suit-name }-Ass
        [king] dem { suit-name }-König
        [queen] der { suit-name }-Dame
        [jack] dem { suit-name }-Buben
       *[other] der { suit-name }-{ $number }
      } ({ rank-short }{ $symbol })

## Die Anleitung: Titel, Überschriften und was die Ausgabeformate drucken.

# $title: der Name des Regelwerks ("Bhabho / Laad").
rulebook-title = Spielanleitung: { $title }
section-differences = Was anders ist als bei { $base }
section-game = Das Spiel
section-cards = Die Karten
section-deal = Das Geben
section-first-trick = Der erste Stich
section-following = Farbe bedienen
section-leading = Wer als Nächstes ausspielt
section-getting-out = Ausscheiden und das Spiel zu zweit
section-taking = Karten nehmen
section-end = Das Ende einer Runde
section-session = Partien, Zählung und Chips
section-table = Spielen mit dem Schiedsrichter
section-sources = Woher diese Regeln stammen
section-glossary = Begriffe des Spiels
section-clauses = Regelklauseln
contents = Inhalt
# $id: die Id des Regelwerks; $hash: seine SHA-256-Prüfsumme; $version: die des Programms.
footer = Regelwerk { $id }, Prüfsumme { $hash }. Erstellt von bhabhi-as-data { $version } aus denselben Regeln, nach denen der Schiedsrichter spielt.
clauses-intro = Jede Regel oben nennt die Klauseln aus dem Regelkatalog des Projekts, die sie wiedergibt. Ihr Wortlaut:

## Wie eine Hausregel von ihrer Grundlage abweicht. $base: der Name des Grundregelwerks.

differences-intro = Gespielt wird { $base }, mit den folgenden Änderungen. Der Rest dieser Anleitung beschreibt das ganze Spiel, die Änderungen eingeschlossen.
differences-none = Diese Regeln sind dieselben wie bei { $base }.

## Das Spiel und die Spieler.

rule-game-goal = Bhabhi ist ein Stichspiel, bei dem es darum geht, die eigenen Karten loszuwerden. Wer keine Karten mehr hat, scheidet aus und ist sicher. Wer als Letzter noch Karten hält, ist die Bhabhi und verliert die Runde.
# $description: die Kurzbeschreibung des Regelwerks, auf Deutsch.
ruleset-description = { $description }
players-range = Es spielen { $min } bis { $max } Spieler.
players-exact = { $count ->
    [one] Dieses Spiel ist für einen einzigen Spieler.
   *[other] Dieses Spiel ist für genau { $count } Spieler.
  }
players-teams-none = Jeder spielt für sich.
players-teams-partners-opposite = Gespielt wird in Zweierteams, die Partner sitzen sich gegenüber; die Spielerzahl muss deshalb gerade sein. Das Team, dessen Spieler am Ende die Bhabhi ist, verliert die Runde.
direction-clockwise = Gegeben und gespielt wird im Uhrzeigersinn, also nach links.
direction-counterclockwise = Gegeben und gespielt wird gegen den Uhrzeigersinn, also nach rechts.

## Die Karten. $order: die Werte von hoch nach niedrig; $ranks: die Werte im Spiel.

deck-packs = { $count ->
    [one] Gespielt wird mit einem Kartendeck ohne Joker.
   *[other] Gespielt wird mit { $count } Kartendecks ohne Joker, die zusammengemischt werden; jede Karte ist also { $count }-mal im Spiel.
  } Es gibt vier Farben: Kreuz ♣, Karo ♦, Herz ♥ und Pik ♠.
deck-ranks-all = Von jeder Farbe sind alle { $count } Karten im Spiel.
deck-ranks-some = { $count ->
    [one] Von jeder Farbe ist nur eine Karte im Spiel: { $ranks }.
   *[other] Von jeder Farbe sind nur diese { $count } Karten im Spiel: { $ranks }.
  } Alle anderen werden vorher aussortiert.
deck-ace-high = Die Reihenfolge in jeder Farbe, von hoch nach niedrig: { $order }. Das Ass ist die höchste Karte.
deck-ace-low = Die Reihenfolge in jeder Farbe, von hoch nach niedrig: { $order }. Das Ass ist die niedrigste Karte.
deck-identical-cards-first-played = Fallen zwei gleiche Karten in denselben Stich, ist die zuerst gespielte höher.
deck-identical-cards-last-played = Fallen zwei gleiche Karten in denselben Stich, ist die zuletzt gespielte höher.

## Das Geben. $seat: eine Platznummer (die Plätze sind im Uhrzeigersinn ab 0 nummeriert).

deal-first-dealer = Wer zuerst gibt, machen die Spieler unter sich aus; im Spiel mit dem Schiedsrichter ist es der Spieler auf Platz { $seat }. Die Plätze sind im Uhrzeigersinn ab 0 nummeriert.
deal-order-with-play = Der Geber teilt die Karten einzeln aus, beginnend beim nächsten Spieler in Spielrichtung.
deal-order-seat-order = Der Geber teilt die Karten einzeln im Uhrzeigersinn aus, beginnend bei seinem linken Nachbarn, ganz gleich, in welche Richtung gespielt wird.
deal-remainder-deal-out = Das ganze Deck wird ausgeteilt; je nach Spielerzahl haben deshalb manche Spieler eine Karte mehr als andere. Das ist normal.
# $lowest: der niedrigste Wert ("2", oder "Ass", wenn das Ass niedrig ist).
deal-remainder-remove-lowest = Damit alle gleich viele Karten bekommen, werden vorher die niedrigsten Karten aussortiert, die nicht gleichmäßig aufgehen: zuerst die Karten mit dem Wert { $lowest }, und zwar Kreuz vor Karo, Herz und Pik. Sie sind aus dem Spiel und liegen offen, für alle sichtbar.
deal-dealer-moves-clockwise = Nach jeder Runde geht das Geben nach links weiter, im Uhrzeigersinn.
deal-dealer-moves-counterclockwise = Nach jeder Runde geht das Geben nach rechts weiter, gegen den Uhrzeigersinn.
deal-dealer-moves-with-play = Nach jeder Runde gibt der nächste Spieler in Spielrichtung.
deal-dealer-moves-bhabhi-deals = Die Bhabhi einer Runde gibt die nächste. Nach einer Runde ohne Bhabhi geht das Geben in Spielrichtung weiter.
deal-dealer-moves-last-picker-deals = Wer in einer Runde als Letzter Karten aufgenommen hat, gibt die nächste. Hat niemand aufgenommen, geht das Geben in Spielrichtung weiter.
rule-redeal = Vor jeder Runde wird das ganze Deck neu gemischt und an alle Spieler ausgeteilt.

## Der erste Stich. $card: die Karte, die den ersten Stich eröffnet, im Akkusativ ("das
## Pik-Ass (A♠)", siehe card-name), $card-nominative im Nominativ; $suit: ihre Farbe.

first-lead-leads-the-card = Wer { $card } hat, eröffnet damit den ersten Stich.
first-lead-leads-any-card = Wer { $card } hat, eröffnet den ersten Stich und darf dazu eine beliebige Karte ausspielen.
first-lead-if-absent-highest-of-suit = { $dealt ->
    [yes] Beim Geben wird { $card-nominative } immer mit ausgeteilt. Fehlte diese Karte einmal, würde stattdessen eröffnen, wer das höchste { $suit } hat; hätte niemand { $suit }, würde der Spieler nach dem Geber eine beliebige Karte ausspielen.
   *[no] Ist { $card-nominative } nicht im Spiel, eröffnet stattdessen, wer das höchste { $suit } hat, damit den ersten Stich; hat niemand { $suit }, spielt der Spieler nach dem Geber eine beliebige Karte aus.
  }
first-lead-if-absent-player-after-dealer = { $dealt ->
    [yes] Beim Geben wird { $card-nominative } immer mit ausgeteilt. Fehlte diese Karte einmal, würde der Spieler nach dem Geber eine beliebige Karte ausspielen.
   *[no] Ist { $card-nominative } nicht im Spiel, spielt der Spieler nach dem Geber eine beliebige Karte aus.
  }
rule-lead-card-first-pack = Mit mehreren Decks ist { $card-nominative } mehrfach im Spiel: Nur die Karte aus dem ersten Deck eröffnet den ersten Stich, und der Schiedsrichter, der die Decks unterscheidet, weiß, wer sie hat. Die anderen sind gewöhnliche Karten.
first-trick-off-suit-as-other-tricks = Der erste Stich wird gespielt wie jeder andere.
first-trick-off-suit-discard = { $penalty ->
    [yes] Zum ersten Stich legt jeder genau eine Karte; wer bedienen kann, muss bedienen. Greift keine der Strafen unten, beendet nichts den ersten Stich vorzeitig, und niemand nimmt ihn auf: Seine Karten kommen verdeckt beiseite und beginnen den Ablagestapel. Eine Strafe entscheidet auch, wer als Nächster ausspielt. Bei diesem Stich muss eigentlich niemand warten, bis er an der Reihe ist; am Tisch des Schiedsrichters wird aber der Reihe nach gespielt, und eine Karte außer der Reihe wird behandelt wie bei jedem anderen Stich.
   *[no] Zum ersten Stich legt jeder genau eine Karte; wer bedienen kann, muss bedienen. Nichts beendet den ersten Stich vorzeitig, niemand nimmt ihn auf, und alle seine Karten kommen verdeckt beiseite: Mit ihnen beginnt der Ablagestapel. Bei diesem Stich muss eigentlich niemand warten, bis er an der Reihe ist; am Tisch des Schiedsrichters wird trotzdem der Reihe nach gespielt.
  }
first-trick-void-plays-any = { $tochoo ->
    [yes] Auch im ersten Stich spielt, wer nicht bedienen kann, eine beliebige andere Karte als Tochoo, wie bei jedem anderen Stich.
   *[no] Wer im ersten Stich nicht bedienen kann, darf eine beliebige Karte spielen.
  }
first-trick-void-plays-highest = Wer im ersten Stich nicht bedienen kann, muss eine seiner höchsten Karten spielen, ganz gleich, welcher Farbe.
first-trick-next-leader-as-other-tricks = { $discarded ->
     [yes] Wer zum zweiten Stich ausspielt, richtet sich nach den Regeln für einen sauberen Stich, auch wenn im ersten Stich Karten anderer Farben liegen.
    *[no] Zum zweiten Stich spielt aus, wer nach den Regeln für die übrigen Stiche an der Reihe ist.
  }
first-trick-next-leader-first-leader = Wer den ersten Stich eröffnet hat, spielt auch zum zweiten Stich aus.

## Farbe bedienen.

rule-follow-suit = Wer einen Stich eröffnet, legt eine beliebige Karte offen auf den Tisch. Die anderen legen der Reihe nach je eine Karte offen dazu und müssen Farbe bedienen, also eine Karte der ausgespielten Farbe spielen, wenn sie eine haben. Welche Karte dieser Farbe sie spielen, ist ihnen überlassen.
rule-trick-complete = { $waste ->
    [yes] Haben alle gespielt, gewinnt die höchste Karte der ausgespielten Farbe, und die Karten des Stichs kommen verdeckt auf den Ablagestapel.
   *[no] Haben alle gespielt, gewinnt die höchste Karte der ausgespielten Farbe, und wer sie gespielt hat, nimmt die Karten des Stichs verdeckt aus dem Spiel; sie scheiden für diese Runde endgültig aus.
  }
rule-trick-clean = { $waste ->
    [yes] Bedienen alle, ist der Stich sauber: Die höchste Karte der ausgespielten Farbe gewinnt, und die Karten kommen verdeckt auf den Ablagestapel.
   *[no] Bedienen alle, ist der Stich sauber: Die höchste Karte der ausgespielten Farbe gewinnt, und wer sie gespielt hat, nimmt die Karten verdeckt aus dem Spiel; sie scheiden für diese Runde endgültig aus.
  }
off-suit-play-pickup = Wer nicht bedienen kann, spielt keine Karte, sondern nimmt alle Karten, die bisher zum Stich gespielt wurden, auf die Hand. Damit endet der Stich sofort.
off-suit-play-discard = Wer nicht bedienen kann, wirft eine beliebige Karte ab. Ein Abwurf kann den Stich nie gewinnen, und das Spiel geht zum nächsten Spieler weiter.
off-suit-play-tochoo = Wer nicht bedienen kann, spielt eine beliebige Karte einer anderen Farbe: einen Tochoo, auch Thulla genannt. Der Tochoo beendet den Stich sofort; alle, die danach noch an der Reihe wären, spielen zu diesem Stich keine Karte mehr.
off-suit-play-tochoo-plays-on = Wer nicht bedienen kann, spielt eine beliebige Karte einer anderen Farbe: einen Tochoo, auch Thulla genannt. Der Stich geht trotzdem weiter, und alle spielen dazu. Ein Stich mit einem Tochoo wird am Ende aufgenommen, ein Stich ohne Tochoo ist sauber.
off-suit-tochoo-picked-up-by-highest-of-led = Nach einem Tochoo nimmt, wer die höchste Karte der ausgespielten Farbe gespielt hat, alle Karten des Stichs auf, den Tochoo eingeschlossen.
off-suit-tochoo-picked-up-by-tochoo-player = Nach einem Tochoo nimmt, wer ihn gespielt hat, alle Karten des Stichs auf, den Tochoo eingeschlossen (bei mehreren Tochoos, wer den ersten gespielt hat).
off-suit-pickup-takes-trick = Wer aufnimmt, nimmt nur die Karten dieses Stichs.
off-suit-pickup-takes-trick-and-waste = Wer aufnimmt, nimmt die Karten dieses Stichs und dazu den ganzen Ablagestapel.

## Trumpf. $suit: die Trumpffarbe.

trump-none = Es gibt keine Trumpffarbe.
trump-first-off-suit-card = Zu Beginn gibt es keine Trumpffarbe. Die erste Karte, die jemand spielt, weil er nicht bedienen kann, macht ihre Farbe für den Rest der Runde zu Trumpf; diese Karte selbst zählt aber noch wie jede andere Karte einer fremden Farbe.
trump-fixed = Trumpf ist in jeder Runde { $suit }.
trump-dealer-choice = Vor dem ersten Ausspielen bestimmt der Geber die Trumpffarbe; bis dahin geht nichts weiter.
rule-trump-beats = Sobald es eine Trumpffarbe gibt, beendet ein Trumpf den Stich nicht, wenn ihn jemand spielt, der nicht bedienen kann: Es wird weitergespielt, und der höchste Trumpf sticht jede Karte der ausgespielten Farbe. Wer ihn gespielt hat, gewinnt den Stich oder nimmt ihn nach einem Tochoo auf.
rule-trump-high = Wo diese Regeln von der höchsten Karte der ausgespielten Farbe sprechen, geht ein Trumpf im Stich vor: Wer den höchsten Trumpf gespielt hat, gewinnt den Stich oder nimmt ihn auf und spielt an dessen Stelle zum nächsten Stich aus.

## Karten, die gegen die Regeln gespielt werden.

illegal-play-reject = Wer bedienen kann, muss bedienen: Eine Karte einer anderen Farbe weist der Schiedsrichter zurück, und es ändert sich nichts. Spiel dann eine Karte der ausgespielten Farbe.
illegal-play-pickup-penalty = Wer nicht bedient, obwohl er könnte, nimmt seine Karte zurück und muss den Stich aufnehmen; damit ist der Stich beendet.
illegal-play-challenge = Man darf eine Karte einer anderen Farbe spielen, obwohl man bedienen könnte (ein falscher Tochoo). Sie zählt wie jede andere Karte einer fremden Farbe, aber direkt nach dem Stich darf jeder andere Spieler, der noch in der Runde ist, sie beanstanden. Eine unberechtigte Beanstandung kostet nichts.
false-tochoo-penalty-bhabhi = Ist die Beanstandung berechtigt, endet die Runde sofort, und wer die falsche Karte gespielt hat, ist die Bhabhi.
false-tochoo-penalty-pickup-and-lead = Ist die Beanstandung berechtigt, nimmt, wer die falsche Karte gespielt hat, die Karten dieses Stichs auf – aus dem Blatt dessen, der sie aufgenommen hat, oder vom Ablagestapel – und spielt zum nächsten Stich aus.
out-of-turn-refuse = Eine Karte, die außer der Reihe gespielt wird, weist der Schiedsrichter zurück, und es ändert sich nichts.
out-of-turn-pickup-penalty = Wer außer der Reihe spielt oder noch zu einem Stich spielt, den ein Tochoo schon beendet hat, behält seine Karte, nimmt diesen Stich auf und spielt zum nächsten aus.

## Wer als Nächstes ausspielt.

next-leader-after-complete-trick-highest = { $trick ->
     [every] Nach jedem Stich spielt zum nächsten Stich aus, wer die höchste Karte der ausgespielten Farbe gespielt hat.
    *[clean] { $power ->
        [yes] Nach einem sauberen Stich hat die Macht, wer die höchste Karte der ausgespielten Farbe gespielt hat, und spielt zum nächsten Stich aus.
       *[no] Nach einem sauberen Stich gewinnt ihn, wer die höchste Karte der ausgespielten Farbe gespielt hat, und spielt zum nächsten Stich aus.
      }
  }
next-leader-after-complete-trick-lowest = { $trick ->
     [every] Nach jedem Stich spielt zum nächsten Stich aus, wer die niedrigste Karte der ausgespielten Farbe gespielt hat.
    *[clean] Nach einem sauberen Stich spielt zum nächsten Stich aus, wer die niedrigste Karte der ausgespielten Farbe gespielt hat.
  }
next-leader-after-pickup-picker = Wurde ein Stich aufgenommen, spielt zum nächsten Stich aus, wer ihn aufgenommen hat.
next-leader-after-pickup-highest = { $power ->
    [yes] Wurde ein Stich aufgenommen, hat die Macht, wer die höchste Karte der ausgespielten Farbe gespielt hat, und spielt zum nächsten Stich aus.
   *[no] Wurde ein Stich aufgenommen, spielt zum nächsten Stich aus, wer die höchste Karte der ausgespielten Farbe gespielt hat.
  }
next-leader-after-pickup-lowest = Wurde ein Stich aufgenommen, spielt zum nächsten Stich aus, wer die niedrigste Karte der ausgespielten Farbe gespielt hat.
next-leader-after-pickup-tochoo-player = Wurde ein Stich aufgenommen, spielt zum nächsten Stich aus, wer den Tochoo gespielt hat.
next-leader-if-out-next-in-turn = Hat der Spieler, der ausspielen müsste, keine Karten mehr, scheidet er aus und ist sicher; dann spielt der Nächste in der Reihe aus, der noch Karten hat.
next-leader-if-out-draws-from-waste = Mit der Macht kannst du nicht entkommen. Gewinnt deine letzte Karte einen sauberen Stich, musst du trotzdem zum nächsten Stich ausspielen: Bevor der Stich auf den Ablagestapel kommt, ziehst du eine Karte vom verdeckten Ablagestapel und spielst sie aus. Spielt jemand eine höhere Karte dieser Farbe, scheidest du aus und bist sicher; wenn nicht, musst du wieder ausspielen – aus den Karten, die du nach einem Tochoo aufgenommen hast, oder sonst mit einer neu gezogenen Karte.
next-leader-if-out-draws-from-player = Mit der Macht kannst du nicht entkommen. Gewinnt deine letzte Karte einen sauberen Stich, ziehst du eine zufällige Karte aus dem Blatt eines anderen Spielers und spielst sie aus. War das seine letzte Karte, ist er entkommen.
next-leader-if-out-next-highest = Hat der Spieler, der ausspielen müsste, keine Karten mehr, spielt aus, wer die nächsthöhere Karte der ausgespielten Farbe gespielt hat und noch Karten hat, und so weiter, Karte für Karte abwärts. Hat keiner von ihnen noch Karten, oder wurde der Stich aufgenommen, spielt der Nächste in der Reihe aus, der noch Karten hat.
next-leader-draw-pile-waste = Du ziehst vom Ablagestapel, bevor die Karten des gerade gespielten Stichs darauf gelegt werden.
next-leader-draw-pile-waste-and-trick = Die Karten des gerade gespielten Stichs kommen vorher auf den Ablagestapel, du kannst also eine davon wieder ziehen.
next-leader-draw-random = Die Karte wird zufällig aus dem gemischten Stapel gezogen.
next-leader-draw-top = Du ziehst die oberste Karte des Ablagestapels, also die, die zuletzt darauf gelegt wurde.
next-leader-if-waste-empty-goes-out = Ist der Ablagestapel leer, bist du doch entkommen, und der Nächste in der Reihe, der noch Karten hat, spielt aus.
next-leader-if-waste-empty-draws-from-trick = Ist der Ablagestapel leer, kommt zuerst der gerade gespielte Stich darauf, und du ziehst aus dessen Karten.
next-leader-draw-from-next-active = Du ziehst beim Nächsten in der Reihe, der noch Karten hat.
next-leader-draw-from-chosen = Du suchst dir aus, bei wem du ziehst; ist nur noch ein anderer Spieler übrig, ziehst du bei ihm.

## Entkommen und das Spiel zu zweit.

rule-going-out = Wer am Ende eines Stichs keine Karten mehr hat, scheidet aus: Er ist sicher und spielt in dieser Runde nicht mehr mit.
rule-same-trick-out = Scheiden mehrere Spieler im selben Stich aus, sind alle sicher.
end-two-left-pickup-loses-true = Sind nur noch zwei Spieler übrig, beendet ein Stich, der aufgenommen werden muss, die Runde: Wer ihn aufnehmen müsste, ist die Bhabhi.
end-two-left-pickup-loses-false = { $shootout ->
    [yes] Sind nur noch zwei Spieler übrig, beendet ein aufgenommener Stich die Runde nicht von selbst; es wird weitergespielt, außer im Duell unten.
   *[no] Sind nur noch zwei Spieler übrig, beendet ein aufgenommener Stich die Runde nicht von selbst; es wird weitergespielt.
  }
end-two-left-tochoo-wins-true = Sind nur noch zwei Spieler übrig, beendet ein Tochoo die Runde sofort: Wer ihn gespielt hat, ist sicher, und der andere ist die Bhabhi.
end-two-left-tochoo-wins-false = { $shootout ->
    [yes] Auch wenn nur noch zwei Spieler übrig sind, zählt ein Tochoo wie sonst, außer im Duell unten.
   *[no] Auch wenn nur noch zwei Spieler übrig sind, zählt ein Tochoo wie sonst.
  }
end-shootout-none = Zu zweit gibt es kein Duell (Shootout): Es wird weitergespielt wie bisher.
end-shootout-after-waste-draw = Das Duell (Shootout): Sind nur noch zwei Spieler übrig und spielst du eine gerade gezogene Karte aus, die der andere nicht bedienen kann, endet die Runde sofort. Du bist die Bhabhi, und der andere ist sicher.
end-shootout-any-last-card = Das Duell (Shootout): Sind nur noch zwei Spieler übrig und spielst du deine letzte Karte aus, die der andere nicht bedienen kann, endet die Runde sofort. Du bist die Bhabhi, und der andere ist sicher.
end-two-left-power-escapes-true = Sind nur noch zwei Spieler übrig und gewinnt die letzte Karte eines Spielers einen sauberen Stich, entkommt er sofort, ohne zu ziehen, und der andere ist die Bhabhi.
end-two-left-power-escapes-false = Auch wenn nur noch zwei Spieler übrig sind, gilt die Macht wie sonst.

## Karten nehmen.

take-hand-when-never = Niemand darf die Karten eines anderen Spielers nehmen.
take-hand-when-before-any-trick = Vor jedem Stich darf jeder, der noch Karten hat, das ganze Blatt eines anderen Spielers zu seinen eigenen Karten nehmen. Der Spieler, dessen Karten genommen wurden, ist entkommen und kann nicht mehr verlieren.
take-hand-when-leader-before-trick = Nur wer gleich ausspielt, darf das ganze Blatt eines anderen Spielers nehmen, und zwar unmittelbar vor dem Ausspielen. Der Spieler, dessen Karten genommen wurden, ist entkommen und kann nicht mehr verlieren.
take-hand-when-after-neighbour-tochoo = Zwingt dich ein Nachbar mit seinem Tochoo zum Aufnehmen, schuldet er dir sein Blatt: Vor dem nächsten Stich, und nur dann, darfst du sein ganzes Blatt zu deinen Karten nehmen. Wird die Schuld vor diesem Stich nicht eingefordert, verfällt sie. Der Spieler, dessen Karten genommen wurden, ist entkommen und kann nicht mehr verlieren.
take-hand-from-left = Du nimmst die Karten des Spielers direkt links von dir oder, falls er schon ausgeschieden ist, die des nächsten Spielers im Uhrzeigersinn, der noch Karten hat.
take-hand-from-right = Du nimmst die Karten des Spielers direkt rechts von dir oder, falls er schon ausgeschieden ist, die des nächsten Spielers gegen den Uhrzeigersinn, der noch Karten hat.
take-hand-from-next-in-turn = Du nimmst die Karten des Nächsten in der Reihe, der noch Karten hat.
take-hand-from-either-neighbour = Du hast die Wahl: die Karten des nächsten Spielers links von dir, der noch mitspielt, oder die des nächsten rechts von dir.
take-hand-from-any-player = Du darfst dir jeden Spieler aussuchen, der noch Karten hat, und sagst an, wessen Karten du nimmst.
take-hand-per-trick-one = Vor jedem Stich darf nur ein Blatt genommen werden: Wer sich zuerst meldet, bekommt es.
take-hand-per-trick-any = Vor demselben Stich dürfen mehrere Blätter genommen werden, eines nach dem anderen, in der Reihenfolge, in der sie verlangt werden.
take-hand-per-trick-pass-in-turn = Vor jedem Stich geht das Nehmen einmal reihum, beginnend bei dem, der ausspielt, in Spielrichtung. Jeder, der nehmen könnte, wird der Reihe nach gefragt und muss nehmen oder passen; niemand nimmt in einem Durchgang zweimal.
take-hand-lead-passes-to-taker = Werden dem Spieler, der ausspielen müsste, die Karten genommen, spielt aus, wer sie genommen hat.
take-hand-lead-passes-to-next-in-turn = Werden dem Spieler, der ausspielen müsste, die Karten genommen, spielt der Nächste in der Reihe aus, der noch Karten hat.
take-hand-consent-true = Nehmen geht nur auf Anfrage: Wessen Blatt verlangt wird, muss zustimmen oder ablehnen, bevor weitergespielt wird. Nach einer Ablehnung ändert sich nichts, und derselbe Spieler darf ihn vor diesem Stich nicht noch einmal fragen.
take-hand-consent-false = Niemand muss zustimmen, wenn sein Blatt genommen wird.
take-hand-before-first-trick-true = Auch vor dem ersten Stich dürfen Blätter genommen werden.
take-hand-before-first-trick-false = Vor dem ersten Stich darf kein Blatt genommen werden.
take-hand-with-two-left-true = Auch wenn nur noch zwei Spieler übrig sind, darf ein Blatt genommen werden; wer nimmt, ist dann allerdings die Bhabhi.
take-hand-with-two-left-false = Sind nur noch zwei Spieler übrig, darf kein Blatt mehr genommen werden.

## Das Ende einer Runde. $count: eine Zahl von Stichen.

rule-bhabhi-loses = Sind alle bis auf einen ausgeschieden, ist der Letzte, der noch Karten hält, die Bhabhi und verliert die Runde. Alle anderen gewinnen sie; Punkte für Karten gibt es nicht.
end-all-out-together-no-bhabhi = { $never ->
    [yes] Die letzten Spieler können nicht alle im selben Stich ausscheiden: Wer ihn gewinnt, hat die Macht und kann nicht entkommen; sind alle anderen draußen, ist er die Bhabhi, auch ohne eine Karte in der Hand. (Die Regel für eine Runde, in der niemand mehr Karten hält, dass es keine Bhabhi gibt, kommt deshalb nie zur Anwendung.)
   *[no] Scheiden die letzten Spieler alle im selben Stich aus, sodass niemand mehr Karten hält, gibt es keine Bhabhi: Die Runde hat keinen Verlierer.
  }
end-all-out-together-last-to-play = { $never ->
    [yes] Die letzten Spieler können nicht alle im selben Stich ausscheiden: Wer ihn gewinnt, hat die Macht und kann nicht entkommen; sind alle anderen draußen, ist er die Bhabhi, auch ohne eine Karte in der Hand. (Die Regel für eine Runde, in der niemand mehr Karten hält, dass die Bhabhi ist, wer als Letzter eine Karte gespielt hat, kommt deshalb nie zur Anwendung.)
   *[no] Scheiden die letzten Spieler alle im selben Stich aus, sodass niemand mehr Karten hält, ist die Bhabhi, wer von ihnen als Letzter eine Karte gespielt hat.
  }
end-all-out-together-trick-winner = { $never ->
    [yes] Die letzten Spieler können nicht alle im selben Stich ausscheiden: Wer ihn gewinnt, hat die Macht und kann nicht entkommen; sind alle anderen draußen, ist er die Bhabhi, auch ohne eine Karte in der Hand. (Die Regel für eine Runde, in der niemand mehr Karten hält, dass die Bhabhi ist, wer die höchste Karte der ausgespielten Farbe gespielt hat, kommt deshalb nie zur Anwendung.)
   *[no] Scheiden die letzten Spieler alle im selben Stich aus, sodass niemand mehr Karten hält, ist die Bhabhi, wer die höchste Karte der ausgespielten Farbe gespielt hat.
  }
end-at-dead-position-no-bhabhi = { $detected ->
    [yes] Eine Runde kann in eine Lage geraten, in der niemand mehr ausscheiden kann, ganz gleich, was gespielt wird. Der Schiedsrichter erkennt das am Ende eines Stichs, und die Runde endet dort ohne Bhabhi.
   *[no] Nach diesen Regeln prüft der Schiedsrichter nicht, ob eine Runde in eine Lage geraten ist, in der niemand mehr ausscheiden kann: Jede Runde, die nicht von selbst endet, beendet das Limit unten. (Die Regel des Regelwerks für eine solche Lage, dass die Runde dort ohne Bhabhi endet, kommt deshalb nie zur Anwendung.)
  }
end-at-dead-position-most-cards = { $detected ->
    [yes] Eine Runde kann in eine Lage geraten, in der niemand mehr ausscheiden kann, ganz gleich, was gespielt wird. Der Schiedsrichter erkennt das am Ende eines Stichs, und die Runde endet dort: Wer die meisten Karten hält, ist die Bhabhi (halten mehrere gleich viele, ist es niemand).
   *[no] Nach diesen Regeln prüft der Schiedsrichter nicht, ob eine Runde in eine Lage geraten ist, in der niemand mehr ausscheiden kann: Jede Runde, die nicht von selbst endet, beendet das Limit unten. (Die Regel des Regelwerks für eine solche Lage, dass die Bhabhi ist, wer die meisten Karten hält, kommt deshalb nie zur Anwendung.)
  }
end-at-dead-position-play-on = Eine Runde kann in eine Lage geraten, in der niemand mehr ausscheiden kann, ganz gleich, was gespielt wird. Sie wird trotzdem weitergespielt, bis zur Grenze, die unten steht.
end-max-tricks = Eine Runde dauert höchstens { $count ->
    [one] einen Stich.
   *[other] { $count } Stiche.
  }
end-at-max-tricks-no-bhabhi = Erreicht eine Runde diese Grenze, ist sie ungültig: Niemand ist die Bhabhi.
end-at-max-tricks-most-cards = Erreicht eine Runde diese Grenze, ist die Bhabhi, wer die meisten Karten hält (halten mehrere gleich viele, ist es niemand).

## Partien, Zählung und Chips. $count: eine Zahl von Runden, von Malen, von Chips.

session-hands = { $count ->
    [one] Eine Partie besteht aus einer einzigen Runde.
   *[other] Eine Partie besteht aus { $count } Runden.
  }
session-hands-none = Eine Partie hat keine feste Zahl von Runden.
session-bhabhi-limit = Die Partie endet, sobald ein Spieler { $count ->
    [one] einmal
   *[other] { $count }-mal
  } die Bhabhi war.
session-bhabhi-limit-none = Die Partie endet nicht vorzeitig, ganz gleich, wie oft jemand die Bhabhi ist.
rule-session-loser = Es wird mitgezählt, wie oft jeder die Bhabhi war: Wer es am häufigsten war, verliert die Partie.
session-chips = Gespielt wird um Chips, mit einem Einsatz von { $count ->
    [one] einem Chip
   *[other] { $count } Chips
  }. Am Ende der Partie bekommt der Spieler mit den wenigsten Niederlagen den Pott; bei Gleichstand wird er zu gleichen Teilen geteilt, und was sich nicht teilen lässt, bleibt im Pott.
session-chips-none = Es wird nicht um Chips gespielt.
session-chips-by-bhabhi = Jede Bhabhi zahlt den Einsatz in den Pott.
session-chips-by-card-points = Jede Bhabhi zahlt den Einsatz für jeden Punkt der Karten, die sie noch auf der Hand hat, in den Pott: Zahlenkarten zählen so viel, wie auf ihnen steht, Bube, Dame und König je 10, ein Ass 1. Eine Bhabhi ohne Karten zahlt nichts.

## Spielen mit dem Schiedsrichter: die Uhr und was man sieht.

timeout-move-lowest-card = Läuft die Zeit eines Spielers ab, spielt der Schiedsrichter für ihn seine niedrigste erlaubte Karte{ $pickup ->
    [yes] {" "}oder nimmt für ihn auf, wenn er keine spielen kann.
   *[no] .
  }{ $takes ->
    [yes] {" "}Wegen abgelaufener Zeit wird nie ein Blatt genommen.
   *[no] {""}
  }
timeout-move-highest-card = Läuft die Zeit eines Spielers ab, spielt der Schiedsrichter für ihn seine höchste erlaubte Karte{ $pickup ->
    [yes] {" "}oder nimmt für ihn auf, wenn er keine spielen kann.
   *[no] .
  }{ $takes ->
    [yes] {" "}Wegen abgelaufener Zeit wird nie ein Blatt genommen.
   *[no] {""}
  }
timeout-bot-after = { $count ->
    [one] Ist die Zeit eines Spielers einmal abgelaufen
   *[other] Ist die Zeit eines Spielers { $count }-mal hintereinander abgelaufen
  }, spielt der Schiedsrichter sofort und ohne zu warten für ihn, bis er wieder selbst spielt.
timeout-bot-after-none = Der Schiedsrichter wartet jedes Mal die volle Bedenkzeit ab, ganz gleich, wie oft die Zeit eines Spielers schon abgelaufen ist.
hand-sizes-public = Jeder sieht, wie viele Karten jeder Spieler hält.
hand-sizes-hidden = Du siehst, wie viele Karten du hältst, aber nicht, wie viele die anderen halten. Karten, die ein Spieler offen aufgenommen hat, bleiben bekannt.

## Woher diese Regeln stammen. $name: der Titel einer Quelle; $follows: was daraus übernommen
## ist (auf Englisch, aus dem Regelwerk).

source-named = { $name }
source-follows = { $name }: { $follows }

## Begriffe des Spiels. Jede Meldung ist die Bedeutung, ihr .term das Wort selbst.

glossary-bhabhi = Hindi und Urdu für „Schwägerin“. So heißt, wer eine Runde verliert, weil er als Letzter noch Karten hält. Oft heißt auch das Spiel selbst Bhabhi.
    .term = Bhabhi
glossary-getaway = Der Name des Spiels in Pakistan und bei vielen Spielern im Ausland. Er kommt vom Ziel des Spiels: zu entkommen (englisch „get away“), also alle Karten loszuwerden. Auch Get Away geschrieben.
    .term = Getaway
glossary-thulla = Ein anderer Name für den Tochoo, die Karte einer fremden Farbe, die einen Stich beendet; mancherorts auch der Name des ganzen Spiels.
    .term = Thulla
glossary-tochoo = Eine Karte einer fremden Farbe, die spielt, wer nicht bedienen kann. Bei Bhabho beendet der Tochoo den Stich sofort, und der Stich wird aufgenommen.
    .term = Tochoo
glossary-bhabho = Das Spiel mit der Macht: Wer die Macht hat, kann nicht entkommen, und vor jedem Stich darf man die Karten seines linken Nachbarn nehmen.
    .term = Bhabho
glossary-laad = Ein anderer Name für Bhabho.
    .term = Laad
glossary-kazhutha = Malayalam für „Esel“. So heißt das Spiel in Kerala, wo der Verlierer der Esel ist. Auch Donkey genannt.
    .term = Kazhutha
glossary-vettu = Malayalam für „Schnitt“. So heißt in Kerala ein Tochoo.
    .term = Vettu
glossary-haath = Hindi und Urdu für „Hand“: die Karten, die ein Spieler hält, sein Blatt. Man sagt es etwa, wenn jemandem das ganze Blatt genommen wird.
    .term = Haath

## Ausgearbeitete Beispiele: ein Stich aus einem Spiel der Konformitätsfälle, unter der Regel,
## die er zeigt. $case: der Name des Falls (nicht übersetzen); $players: wie viele spielen;
## $plays: die Karten des Stichs in der gespielten Reihenfolge, jede von example-play
## geschrieben und als Liste verbunden; $seat: eine Platznummer; $count: eine Anzahl Karten.

example-trick = Beispiel ({ $case }, { $players } Spieler): { $plays }.
example-play = Platz { $seat } { rank-short }{ $symbol }
example-clean = Alle haben bedient, und Platz { $seat } hat die höchste Karte gespielt.
example-off-suit = Platz { $seat } konnte nicht bedienen und hat eine Karte abgeworfen.
example-highest = Platz { $seat } hat die höchste Karte der ausgespielten Farbe gespielt.
example-trump-highest = Platz { $seat } hat den höchsten Trumpf gespielt.
example-tochoo = Platz { $seat } konnte nicht bedienen und hat einen Tochoo gespielt; damit endet der Stich.
example-cannot-follow = Platz { $seat } kann nicht bedienen.
example-picks-up = Platz { $seat } nimmt { $count ->
    [one] die Karte
   *[other] die { $count } Karten
  } auf.
example-out = Platz { $seat } hat keine Karten mehr und scheidet aus.
example-leads = Platz { $seat } spielt zum nächsten Stich aus.
example-bhabhi = Platz { $seat } ist die Bhabhi.

## Der Regelkatalog: Titel und Wortlaut jeder Klausel (rules/catalogue.yaml), in der Reihenfolge des Katalogs.

clause-C1 = Ein einziges Kartendeck mit 52 Karten ohne Joker: vier Farben (Kreuz, Karo, Herz, Pik) zu je dreizehn Werten. Innerhalb einer Farbe ist das Ass die höchste Karte, danach folgen König, Dame, Bube und 10 abwärts bis zur 2. Keine Farbe ist Trumpf.
    .title = Das Kartendeck
clause-C2 = Es spielen drei bis acht Personen, jeder für sich.
    .title = Die Spieler
clause-C3 = Gegeben und gespielt wird in derselben Richtung um den Tisch; in welcher, machen die Spieler vor Beginn aus.
    .title = Die Spielrichtung
clause-C4 = Der Geber teilt das ganze Deck Karte für Karte aus, reihum in Spielrichtung. Lässt sich 52 nicht ohne Rest durch die Zahl der Spieler teilen, haben manche Blätter eine Karte mehr als die anderen.
    .title = Das Geben
clause-C5 = Wie der erste Geber bestimmt wird, vereinbaren die Spieler frei; nach jeder Runde geht das Geben am Tisch reihum weiter.
    .title = Der Geber
clause-C6 = Wer beim Geben das Pik-Ass bekommen hat, eröffnet damit den ersten Stich. Wäre diese Karte nicht im Spiel, würde stattdessen eröffnen, wer das höchste Pik hat. Wird das ganze Deck frisch ausgeteilt, fehlt sie nie; ein Regelwerk aber, das das Deck oder die Eröffnungskarte ändert, muss sagen, was dann geschieht.
    .title = Das erste Ausspielen
clause-C7 = Wer eine Karte der ausgespielten Farbe hat, muss eine davon spielen und darf wählen, welche. Wer den Stich eröffnet, darf eine beliebige Karte ausspielen.
    .title = Farbe bedienen
clause-C8 = Haben alle bedient, gewinnt die höchste Karte der ausgespielten Farbe den Stich. Seine Karten kommen verdeckt beiseite und sind für den Rest der Runde aus dem Spiel (der Ablagestapel); wer den Stich gewonnen hat, spielt zum nächsten aus.
    .title = Der saubere Stich
clause-C9 = Wer am Ende eines Stichs keine Karten mehr hat, ist ausgeschieden: Er ist sicher und spielt für den Rest der Runde nicht mehr mit.
    .title = Ausscheiden
clause-C10 = Die Runde ist vorbei, wenn nur noch ein Spieler Karten hält. Er ist die Bhabhi und verliert die Runde; alle anderen haben sie gewonnen.
    .title = Das Ende einer Runde
clause-C11 = Zwei Spieler, die im selben Stich ihre letzten Karten loswerden, sind beide sicher.
    .title = Ausscheiden im selben Stich
clause-C12 = Eine fremde Farbe zu spielen, obwohl man die ausgespielte Farbe hat, ist nicht erlaubt. Am Tisch nimmt, wer so gespielt hat, die Karte zurück und spielt eine, die bedient; in der Aufnahme-Variante kann man ihn stattdessen auch den Stich aufnehmen lassen. Ein Schiedsrichter muss die Karte zumindest mit einer klaren Begründung zurückweisen und das Spiel lassen, wie es war; eine Strafe ist möglich, aber nicht vorgeschrieben.
    .title = Unerlaubtes Spiel
clause-C13 = Jede Runde hat einen Verlierer, die Bhabhi; alle anderen gewinnen sie. Punkte für Karten gibt es nicht.
    .title = Die Wertung einer Runde
clause-C14 = Über eine Partie wird für jeden Spieler gezählt, wie viele Runden er als Bhabhi verloren hat. Die Partie endet nach einer vorher vereinbarten Zahl von Runden oder sobald jemand eine vereinbarte Zahl von Niederlagen erreicht (in manchen Gruppen drei); wer am häufigsten verloren hat, verliert die Partie.
    .title = Die Wertung einer Partie
clause-C15 = Auf Wunsch wird um Chips gespielt: Für jede Niederlage als Bhabhi kommt ein Chip in einen gemeinsamen Pott, den am Ende der Partie der Spieler mit den wenigsten Niederlagen bekommt.
    .title = Chips
clause-C16 = Zwischen den Runden wird das ganze Deck neu gemischt und an alle Spieler der Partie ausgeteilt, auch an die, die ausgeschieden sind.
    .title = Neu geben
clause-P1 = In der Aufnahme-Variante spielt, wer nicht bedienen kann, keine Karte; stattdessen nimmt er alle Karten, die bisher zum Stich gespielt wurden, auf die Hand.
    .title = Den Stich aufnehmen
clause-P2 = Das Aufnehmen beendet den Stich sofort, und zum nächsten Stich spielt aus, wer aufgenommen hat.
    .title = Wer aufnimmt, spielt aus
clause-P3 = Nach einem sauberen Stich spielt aus, wer ihn gewonnen hat; ist er gerade ausgeschieden, geht das Ausspielen an den Nächsten in der Reihe, der noch Karten hat.
    .title = Der Gewinner ist ausgeschieden
clause-D1 = In der Abwurf-Variante darf, wer nicht bedienen kann, eine beliebige Karte abwerfen. Sie kann nie gewinnen, und der Stich geht weiter.
    .title = Abwerfen
clause-D2 = Haben alle Spieler zum Stich gespielt, gewinnt ihn die höchste Karte der ausgespielten Farbe; seine Karten kommen aus dem Spiel, und wer ihn gewonnen hat, spielt zum nächsten Stich aus.
    .title = Der Stich in der Abwurf-Variante
clause-V1 = Zum nächsten Stich spielt nicht aus, wer den Stich gewonnen hat, sondern sein Verlierer: wer die niedrigste Karte der ausgespielten Farbe gespielt hat.
    .title = Get Away (pakistanische Variante)
clause-V2 = Die Spieler bilden Teams, die Partner sitzen sich gegenüber; am Ende der Runde verliert das Team, dessen Spieler noch Karten übrig hat. Dazu braucht es eine gerade Zahl von Spielern.
    .title = Team-Bhabhi
clause-V3 = Manche Gruppen werten das Ass niedriger als die 2. Das erste Ausspielen geht dann an die Pik-2 oder bleibt beim Pik-Ass, je nachdem, was die Gruppe gewohnt ist.
    .title = Ass niedrig
clause-V4 = Wer nicht bedienen kann, nimmt nicht nur den laufenden Stich auf, sondern auch alle früheren Stiche, die in der Mitte liegen.
    .title = Den ganzen Stapel aufnehmen
clause-V5 = Wer einen Stich gewinnt, spielt zum nächsten aus; ist er ausgeschieden, spielt der Nächste in der Reihe aus. Die Spielanleitung „How to Play“ führt das als eigene Variante auf, obwohl es dasselbe besagt wie P3.
    .title = Die höchste Karte spielt aus
clause-B1 = Wer das Pik-Ass hat, spielt es aus, und jeder andere Spieler legt dann eine Karte dazu: ein Pik, wenn er eines hat, sonst eine beliebige Karte. Nichts beendet diesen Stich vorzeitig, und alle seine Karten kommen verdeckt auf den Ablagestapel. Die Vorlage fügt hinzu, dass bei diesem Stich niemand warten muss, bis er an der Reihe ist.
    .title = Der erste Stich
clause-B2 = Wer das Pik-Ass hatte, spielt zum zweiten Stich aus.
    .title = Der zweite Stich
clause-B3 = Ab dem zweiten Stich „hat die Macht“, wer zum vorigen Stich die höchste Karte der ausgespielten Farbe gespielt hat, und spielt aus.
    .title = Die Macht
clause-B4 = Wer nicht bedienen kann, darf eine beliebige Karte spielen. Diese Karte einer fremden Farbe, der Tochoo oder Thulla, beendet den Stich sofort: Alle, die danach noch an der Reihe wären, spielen zu diesem Stich nichts mehr.
    .title = Der Tochoo (Thulla)
clause-B5 = Haben alle bedient, kommen die Karten des Stichs verdeckt auf den Ablagestapel.
    .title = Der saubere Stich
clause-B6 = Nach einem Tochoo nimmt, wer die höchste Karte der ausgespielten Farbe gespielt hat, alle Karten des Stichs auf die Hand, den Tochoo eingeschlossen. (Nach P1 nimmt auf, wer nicht bedienen konnte.)
    .title = Wer aufnimmt
clause-B7 = Ob der Stich sauber war oder mit einem Tochoo endete: Wer die höchste Karte der ausgespielten Farbe gespielt hat, hat nun die Macht und spielt zum nächsten Stich aus.
    .title = Wer die Macht hat, spielt aus
clause-B8 = Niemand kann entkommen, solange er die Macht hat. Gewinnt deine letzte Karte einen sauberen Stich, musst du eine zufällige Karte vom verdeckten Ablagestapel ziehen (er ist gemischt, und der Stich liegt noch nicht darauf) und sie ausspielen. Spielt ein anderer Spieler eine höhere Karte dieser Farbe, scheidest du aus und bist sicher; wenn nicht, spielst du wieder aus: aus den Karten, die du aufgenommen hast, wenn der Stich mit einem Tochoo endete, sonst mit einer neu gezogenen Karte.
    .title = Mit der Macht kein Entkommen
clause-B9 = Zu Beginn jedes Stichs darf ein Spieler alle Karten des Spielers direkt links von ihm zu seinem eigenen Blatt nehmen (oder, falls dieser ausgeschieden ist, die des nächsten Spielers reihum, der noch Karten hat). Der Spieler, dessen Karten genommen wurden, ist entkommen und kann nicht mehr verlieren.
    .title = Karten nehmen
clause-X1 = Ein Spieler darf das Blatt seines linken Nachbarn nur nehmen, wenn er selbst an der Reihe ist, also als der, der gleich zum nächsten Stich ausspielt, und nicht vor jedem beliebigen Stich wie in B9.
    .title = Ein Blatt nehmen, wenn du an der Reihe bist
clause-X2 = Sind nur noch zwei Spieler übrig, beendet ein Stich, der mit einem Tochoo (oder einem Aufnehmen) endet, die Runde, und wer aufnehmen müsste, ist die Bhabhi.
    .title = Zu zweit beendet ein Tochoo die Runde
clause-X3 = Im ersten Stich darf, wer kein Pik hat, eine beliebige Karte abwerfen, und sie zählt nicht als Tochoo: dasselbe wie B1, als eigene Option formuliert.
    .title = Ausnahme im ersten Stich
clause-X4 = Bei mehr als acht Spielern werden zwei Kartendecks zusammengemischt. Von zwei gleichen Karten im selben Stich ist die zuerst gespielte höher.
    .title = Zwei Kartendecks
clause-X5 = Das Spiel hat eine Trumpffarbe: Trumpf wird die Farbe, die zuerst jemand spielt, der nicht bedienen kann.
    .title = Esel (Kerala)
clause-H1 = Vor dem Geben werden die niedrigsten Karten aussortiert (zuerst die Zweien, dann die Dreien und so weiter), bis jeder Spieler gleich viele Karten bekommen kann; die aussortierten Karten werden nicht gespielt.
    .title = Gleich große Blätter
clause-H2 = Die Bhabhi einer Runde gibt die nächste; oder das Geben geht an den, der zuletzt aufgenommen hat.
    .title = Der Verlierer gibt
clause-H3 = Es dürfen auch zwei spielen oder mit einem einzigen Kartendeck mehr als acht (bis zu zehn) oder mit mehreren Kartendecks bis zu zwölf.
    .title = Andere Spielerzahlen
clause-H4 = Die Karten werden in der Reihenfolge der Plätze ausgeteilt, auch wenn in die andere Richtung gespielt wird.
    .title = Geben in der Reihenfolge der Plätze
clause-H5 = Wer im ersten Stich kein Pik hat, muss eine seiner höchsten Karten spielen, ganz gleich, welcher Farbe; unter gleich hohen Karten hat er die Wahl.
    .title = Ohne Pik die höchste Karte
clause-H6 = Wer das Pik-Ass hat, eröffnet die Runde, darf aber eine beliebige Karte ausspielen.
    .title = Freie Eröffnung
clause-H7 = Eine andere Karte als das Pik-Ass eröffnet den ersten Stich, zum Beispiel das Kreuz-Ass.
    .title = Eine andere Eröffnungskarte
clause-H8 = Eine Karte einer fremden Farbe ist auch im ersten Stich ein Thulla, wie in jedem anderen Stich.
    .title = Keine Ausnahme im ersten Stich
clause-H9 = Nach einem Thulla spielen die übrigen Spieler weiter zum Stich; wer die höchste Karte der ausgespielten Farbe gespielt hat, nimmt ihn auf, und wer den Thulla gespielt hat, spielt zum nächsten Stich aus.
    .title = Ein Thulla beendet den Stich nicht
clause-H10 = Hat der Gewinner eines sauberen Stichs keine Karten mehr, spielt aus, wer die zweithöchste Karte gespielt hat.
    .title = Die zweithöchste Karte spielt aus
clause-H11 = Wer aufnimmt, wird Geber oder spielt aus; oder der Thulla wird umgekehrt, sodass aufnimmt, wer nicht bedienen konnte.
    .title = Wer aufnimmt, gibt oder spielt aus; der umgekehrte Thulla
clause-H12 = Die Trumpffarbe steht fest, bevor die Runde beginnt, oder der Geber bestimmt sie: zwei andere Wege neben dem Trumpf von X5, den die erste Karte einer fremden Farbe festlegt.
    .title = Trumpf auf andere Weise bestimmt
clause-H13 = Wer mit seiner letzten Karte einen sauberen Stich gewinnt, entkommt sofort, und der nächste Spieler, der noch Karten hält, spielt aus.
    .title = Sofort entkommen
clause-H14 = Wer mit seiner letzten Karte einen sauberen Stich gewinnt, zieht nicht vom Ablagestapel (B8), sondern eine zufällige Karte aus dem Blatt eines anderen Spielers: des Nächsten, der noch mitspielt, oder eines Spielers, den er sich aussucht.
    .title = Bei einem Spieler ziehen
clause-H15 = Die Karte, die nach B8 gezogen wird, kommt aus einem Ablagestapel, auf dem der gerade gespielte Stich schon liegt.
    .title = Der Stich liegt schon auf dem Ablagestapel
clause-H16 = Nach B8 wird die oberste Karte des Ablagestapels gezogen, nicht eine zufällig gewählte.
    .title = Die oberste Karte des Ablagestapels
clause-H17 = Sind nur noch zwei übrig und spielt einer von ihnen eine Karte aus, die er vom Ablagestapel gezogen hat (B8), beendet der Gegner die Runde sofort, wenn er nicht bedienen kann: Wer gezogen hat, verliert als Bhabhi, der Gegner ist sicher.
    .title = Das Duell (Shootout)
clause-H18 = Sind nur noch zwei übrig, entscheidet der erste Thulla die Runde: Wer ihn gespielt hat, ist sicher, und der andere ist die Bhabhi.
    .title = Zu zweit gewinnt der Thulla
clause-H19 = Eine Sudden-Death-Regel für die letzten zwei, die gilt, wenn derjenige, dessen Blatt leer wurde, die höchste Karte gespielt hatte; die einzige Quelle bricht ab, bevor sie sagt, wie entschieden wird.
    .title = Sudden Death zu zweit
clause-H20 = Ein Blatt darf nur genommen werden, wenn der Spieler, der es hält, zustimmt.
    .title = Nehmen nur mit Zustimmung
clause-H21 = Vor dem ersten Stich darf kein Blatt genommen werden, und auch nicht mehr, wenn nur noch zwei Spieler übrig sind.
    .title = Nicht zu früh und nicht zu spät nehmen
clause-H22 = Vor jedem Stich werden die Spieler einmal gefragt, ob sie ein Blatt nehmen wollen, in der Reihenfolge der Plätze, beginnend bei dem, der ausspielt; niemand nimmt mehr als einmal.
    .title = Ein Durchgang zum Nehmen
clause-H23 = Drei andere Antworten darauf, wessen Blatt genommen werden darf: Nur wer gleich ausspielt (und damit die Macht hat), nimmt, und zwar das des Nächsten, der noch mitspielt; oder jeder nimmt das eines seiner beiden Nachbarn; oder das irgendeines Spielers.
    .title = Wer bei wem nimmt
clause-H24 = Ein Nachbar, der gegen dich einen Thulla spielt, schuldet dir sein Blatt.
    .title = Wer einen Thulla spielt, schuldet sein Blatt
clause-H25 = Eine fremde Farbe zu spielen, obwohl man die ausgespielte Farbe noch hat (ein falscher Thulla), ist möglich, und jeder Spieler kann es beanstanden. Ist die Beanstandung berechtigt, wird, wer falsch gespielt hat, sofort zur Bhabhi oder nimmt in der Fassung von Pagat den Stich auf und spielt aus; eine unberechtigte Beanstandung kostet nichts.
    .title = Falscher Thulla und Beanstandung
clause-H26 = Wer eine Karte spielt, nachdem ein Tochoo den Stich schon beendet hat, oder spielt, obwohl er nicht an der Reihe ist, muss den Stich aufnehmen und dann ausspielen.
    .title = Strafe für Spielen außer der Reihe
clause-H27 = Lässt ein Spieler seine Zeit ablaufen, wird für ihn seine niedrigste erlaubte Karte gespielt; oder, wenn er zweimal seinen Zug verpasst hat, übernimmt ein Bot seinen Platz; oder der nächste Spieler gibt ihm seine niedrigste Karte.
    .title = Zeit abgelaufen
clause-H28 = Die Bhabhi zahlt den Wert der Karten, die sie noch auf der Hand hat (10 für eine Bildkarte, bei den anderen die aufgedruckte Zahl), multipliziert mit dem Einsatz.
    .title = Chips nach Kartenpunkten
clause-H29 = Die Spieler sehen nicht, wie viele Karten die anderen halten.
    .title = Verborgene Kartenzahlen
clause-H30 = Werden alle, die noch Karten halten, im selben Stich ihre letzten Karten los, verliert, wer den Stich gewonnen hat, oder wer von ihnen in der Spielreihenfolge der Letzte ist, oder es gibt keinen Verlierer.
    .title = Alle scheiden gemeinsam aus
clause-H31 = Hat eine Runde einen Punkt erreicht, von dem aus sie nie enden kann (eine tote Stellung), wird sie entweder bis zu ihrer Höchstlänge weitergespielt oder durch ein Ergebnis entschieden, das nicht davon abhängt, wann die tote Stellung erkannt wird.
    .title = Tote Stellung
