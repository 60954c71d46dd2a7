## Zasady gry Bhabhi, po polsku (the rulebook of a Bhabhi ruleset, in Polish).
##
## Same ids and variables as en.ftl. Plural forms follow CLDR for pl: [one] 1; [few] 2-4,
## 22-24, 32-34 …; [many] 0, 5-21, 25-31 …, 101, 1000; *[other] fractions (1,5 karty), so
## *[other] takes the genitive singular. Masculine-personal nouns take the genitive after
## 2-4 as well: 1 gracz, 3 graczy, 5 graczy.
## Słownictwo gry: lewa, wychodzić (do lewy), kolor wyjścia, dokładać do koloru, karta nie
## do koloru, tochoo (nijakie, nieodmienne), thulla, podnosić (lewę), moc, stos odrzuconych
## kart, uciec (pozbyć się kart), rozdanie (a hand of play), ręka (the cards held),
## rozdający, atut, zrzutka, partia (a session), pula, żetony, sędzia (the referee).
## The loser is "Bhabhi" (nieodmienne): "zostaje Bhabhi", "jest Bhabhi".

## Karty. $rank: two … ten, jack, queen, king, ace; $number: the number of a number card;
## $suit: clubs, diamonds, hearts, spades; $symbol: ♣ ♦ ♥ ♠.
## card-name is the nominative ("as pik (A♠)", "dziesiątka kier (10♥)"); its attributes are
## the other cases, and reach every sentence given $card as variables of their own:
## { $card-accusative } ("gracz, który ma asa pik"), { $card-genitive } ("nikt nie ma asa
## pik"), { $card-instrumental } ("wychodzi asem pik"). Number cards are named by their
## nouns (dwójka … dziesiątka), as players say them.

rank-name = { $rank ->
    [jack] walet
    [queen] dama
    [king] król
    [ace] as
   *[other] { $number }
  }

# Polish indices: W(alet), D(ama), K(ról), A(s).
rank-short = { $rank ->
    [jack] W
    [queen] D
    [king] K
    [ace] A
   *[other] { $number }
  }

suit-name = { $suit ->
    [clubs] trefl
    [diamonds] karo
    [hearts] kier
   *[spades] pik
  }

# "as pik (A♠)", "dama karo (D♦)", "dziesiątka kier (10♥)"
card-name = { $rank ->
    [jack] walet
    [queen] dama
    [king] król
    [ace] as
    [two] dwójka
    [three] trójka
    [four] czwórka
    [five] piątka
    [six] szóstka
    [seven] siódemka
    [eight] ósemka
    [nine] dziewiątka
   *[ten] dziesiątka
  } { suit-name } ({ rank-short }{ $symbol })
    .accusative = { $rank ->
        [jack] waleta
        [queen] damę
        [king] króla
        [ace] asa
        [two] dwójkę
        [three] trójkę
        [four] czwórkę
        [five] piątkę
        [six] szóstkę
        [seven] siódemkę
        [eight] ósemkę
        [nine] dziewiątkę
       *[ten] dziesiątkę
      } { suit-name } ({ rank-short }{ $symbol })
    .genitive = { $rank ->
        [jack] waleta
        [queen] damy
        [king] króla
        [ace] asa
        [two] dwójki
        [three] trójki
        [four] czwórki
        [five] piątki
        [six] szóstki
        [seven] siódemki
        [eight] ósemki
        [nine] dziewiątki
       *[ten] dziesiątki
      } { suit-name } ({ rank-short }{ $symbol })
    .instrumental = { $rank ->
        [jack] waletem
        [queen] damą
        [king] królem
        [ace] asem
        [two] dwójką
        [three] trójką
        [four] czwórką
        [five] piątką
        [six] szóstką
        [seven] siódemką
        [eight] ósemką
        [nine] dziewiątką
       *[ten] dziesiątką
      } { suit-name } ({ rank-short }{ $symbol })

## Instrukcja: tytuł, nagłówki rozdziałów, to, co drukują formaty.

# $title: the ruleset's own name ("Bhabho / Laad", "Osioł (Kerala)"); after a colon it
# stays in the nominative.
rulebook-title = Zasady gry: { $title }
section-differences = Różnice w stosunku do zasad „{ $base }”
section-game = Gra
section-cards = Karty
section-deal = Rozdawanie
section-first-trick = Pierwsza lewa
section-following = Dokładanie do koloru
section-leading = Kto wychodzi do następnej lewy
section-getting-out = Ucieczka i gra we dwóch
section-taking = Branie cudzych kart
section-end = Koniec rozdania
section-session = Partia, liczenie i żetony
section-table = Gra z sędzią
section-sources = Skąd pochodzą te zasady
section-glossary = Słowniczek
section-clauses = Reguły z katalogu
contents = Spis treści
footer = Zestaw zasad { $id }, skrót { $hash }. Wygenerowane przez bhabhi-as-data { $version } z tych samych zasad, których pilnuje sędzia.
clauses-intro = Przy każdej zasadzie podano numery reguł z katalogu projektu, które ona opisuje. Oto ich treść:

## Wariant domowy. $base: the base ruleset's name, in quotes so that it needs no case.

differences-intro = To gra „{ $base }” z poniższymi zmianami. Dalsza część instrukcji opisuje całą grę, już ze zmianami.
differences-none = Te zasady niczym nie różnią się od zasad „{ $base }”.

## Gra i gracze.

rule-game-goal = Bhabhi to gra karciana, w której rozgrywa się lewy, a celem jest pozbycie się swoich kart. Kto nie ma już kart w ręce, ucieka i jest bezpieczny. Ostatni gracz, który wciąż trzyma karty, zostaje Bhabhi i przegrywa rozdanie.
ruleset-description = { $description }
# "od 3 do 8 graczy": both numbers after "od … do" take the genitive.
players-range = W grze może brać udział od { $min } do { $max ->
    [one] { $max } gracza
    [few] { $max } graczy
    [many] { $max } graczy
   *[other] { $max } gracza
  }.
players-exact = { $count ->
    [one] To gra dla jednego gracza.
    [few] W tę grę gra dokładnie { $count } graczy.
    [many] W tę grę gra dokładnie { $count } graczy.
   *[other] W tę grę gra dokładnie { $count } gracza.
  }
players-teams-none = Każdy gra na siebie.
players-teams-partners-opposite = Gracze tworzą dwuosobowe drużyny, a partnerzy siedzą naprzeciwko siebie, więc liczba graczy musi być parzysta. Rozdanie przegrywa drużyna, której gracz zostanie Bhabhi.
direction-clockwise = Karty rozdaje się i zagrywa zgodnie z ruchem wskazówek zegara, czyli w lewo.
direction-counterclockwise = Karty rozdaje się i zagrywa przeciwnie do ruchu wskazówek zegara, czyli w prawo.

## Karty. $order: the ranks from high to low; $ranks: the ranks present (nominative lists).

deck-packs = { $count ->
    [one] Gra się jedną talią kart bez jokerów.
    [few] Tasuje się razem { $count } talie kart, bez jokerów, więc każda karta występuje w { $count } egzemplarzach.
    [many] Tasuje się razem { $count } talii kart, bez jokerów, więc każda karta występuje w { $count } egzemplarzach.
   *[other] Tasuje się razem { $count } talii kart, bez jokerów, więc każda karta występuje w { $count } egzemplarzach.
  } Są cztery kolory: trefl ♣, karo ♦, kier ♥ i pik ♠.
deck-ranks-all = { $count ->
    [one] W każdym kolorze jest jedna karta.
    [few] Każdy kolor ma wszystkie { $count } karty.
    [many] Każdy kolor ma wszystkie { $count } kart.
   *[other] Każdy kolor ma wszystkie { $count } karty.
  }
# The verb agrees with the number: "jest 1 karta", "są 3 karty", "jest 8 kart".
deck-ranks-some = W każdym kolorze { $count ->
    [one] jest tylko jedna karta: { $ranks }.
    [few] są tylko { $count } karty: { $ranks }.
    [many] jest tylko { $count } kart: { $ranks }.
   *[other] jest tylko { $count } karty: { $ranks }.
  } Pozostałe karty wyjmuje się z talii i nie biorą one udziału w grze.
deck-ace-high = Kolejność kart w kolorze, od najwyższej: { $order }. As jest najwyższy.
deck-ace-low = Kolejność kart w kolorze, od najwyższej: { $order }. As jest najniższy.
deck-identical-cards-first-played = Jeśli w jednej lewie padną dwie takie same karty, wyższa jest ta zagrana wcześniej.
deck-identical-cards-last-played = Jeśli w jednej lewie padną dwie takie same karty, wyższa jest ta zagrana później.

## Rozdawanie. $seat: a seat number (numbered clockwise from 0).

deal-first-dealer = Gracze ustalają, kto rozdaje pierwszy; przy stole sędziego jest to gracz na miejscu nr { $seat }, a miejsca są numerowane od 0 zgodnie z ruchem wskazówek zegara.
deal-order-with-play = Karty rozdaje się po jednej, zaczynając od gracza, który siedzi za rozdającym w kierunku gry.
deal-order-seat-order = Karty rozdaje się po jednej zgodnie z ruchem wskazówek zegara, zaczynając od gracza po lewej stronie rozdającego, niezależnie od tego, w którą stronę toczy się gra.
deal-remainder-deal-out = Rozdaje się całą talię, więc niektórzy gracze mogą dostać o jedną kartę więcej niż inni. To normalne.
# $lowest: the lowest rank as rank-name writes it ("2", "7", or "as" when Aces are low).
# Aces, jacks and queens get their plural ("najpierw asy"); other ranks are "karty o wartości
# 2" (a variant key is ASCII, so "król" cannot be one).
deal-remainder-remove-lowest = Żeby każdy dostał tyle samo kart, przed rozdaniem wyjmuje się z talii najniższe karty, których nie da się rozdać po równo: najpierw { $lowest ->
    [as] asy
    [walet] walety
    [dama] damy
   *[other] karty o wartości { $lowest }
  } (trefl, potem karo, kier i pik), a jeśli trzeba, następne w górę. Wyjęte karty nie biorą udziału w grze i leżą odkryte, żeby wszyscy je widzieli.
deal-dealer-moves-clockwise = Po każdym rozdaniu rozdającym zostaje gracz po lewej, zgodnie z ruchem wskazówek zegara.
deal-dealer-moves-counterclockwise = Po każdym rozdaniu rozdającym zostaje gracz po prawej, przeciwnie do ruchu wskazówek zegara.
deal-dealer-moves-with-play = Po każdym rozdaniu rozdającym zostaje następny gracz w kierunku gry.
deal-dealer-moves-bhabhi-deals = W kolejnym rozdaniu karty rozdaje Bhabhi poprzedniego. Jeśli rozdanie skończyło się bez Bhabhi, rozdającym zostaje następny gracz w kierunku gry.
deal-dealer-moves-last-picker-deals = W kolejnym rozdaniu karty rozdaje ten, kto w poprzednim jako ostatni coś podnosił. Jeśli nikt niczego nie podnosił, rozdającym zostaje następny gracz w kierunku gry.
rule-redeal = Przed każdym rozdaniem całą talię tasuje się od nowa i rozdaje wszystkim graczom.

## Pierwsza lewa. $card: the lead card ("as pik (A♠)"), declined through $card-accusative
## and $card-genitive; $suit: its suit ("pik").

first-lead-leads-the-card = Gracz, który ma { $card-accusative }, wychodzi tą kartą do pierwszej lewy.
first-lead-leads-any-card = Pierwszą lewę zaczyna gracz, który ma { $card-accusative }; może wyjść dowolną kartą.
first-lead-if-absent-highest-of-suit = { $dealt ->
    [yes] W każdym rozdaniu ktoś dostaje { $card-accusative }. Gdyby tej karty zabrakło, pierwszą lewę zacząłby gracz z najwyższą kartą w kolorze { $suit }, wychodząc tą kartą; gdyby nikt nie miał kart w kolorze { $suit }, zacząłby następny gracz po rozdającym, dowolną kartą.
   *[no] Jeśli nikt nie ma { $card-genitive }, bo ta karta nie bierze udziału w grze, pierwszą lewę zaczyna gracz z najwyższą kartą w kolorze { $suit } i wychodzi tą kartą; jeśli nikt nie ma kart w kolorze { $suit }, zaczyna następny gracz po rozdającym, dowolną kartą.
  }
first-lead-if-absent-player-after-dealer = { $dealt ->
    [yes] W każdym rozdaniu ktoś dostaje { $card-accusative }. Gdyby tej karty zabrakło, pierwszą lewę zacząłby następny gracz po rozdającym, dowolną kartą.
   *[no] Jeśli nikt nie ma { $card-genitive }, bo ta karta nie bierze udziału w grze, pierwszą lewę zaczyna następny gracz po rozdającym, dowolną kartą.
  }
rule-lead-card-first-pack = Przy kilku taliach { $card } występuje kilka razy: pierwszą lewę otwiera tylko karta z pierwszej talii, a sędzia, który odróżnia talie, wie, kto ją ma. Pozostałe egzemplarze są zwykłymi kartami.
first-trick-off-suit-as-other-tricks = Pierwszą lewę rozgrywa się tak samo jak każdą inną.
first-trick-off-suit-discard = { $penalty ->
    [yes] W pierwszej lewie każdy zagrywa jedną kartę, do koloru, jeśli może. Jeśli nie zachodzi żadna z opisanych niżej kar, nic nie kończy pierwszej lewy przed czasem i nikt jej nie podnosi: jej karty odkłada się zakryte i tak powstaje stos odrzuconych kart. Kara rozstrzyga też, kto wychodzi następny. W tej lewie gracze nie muszą czekać na swoją kolej, ale przy stole sędziego gra się po kolei, a kartę zagraną poza kolejnością traktuje się tak jak w każdej innej lewie.
   *[no] W pierwszej lewie każdy zagrywa jedną kartę, do koloru, jeśli może. Nic nie kończy pierwszej lewy przed czasem i nikt jej nie podnosi; wszystkie jej karty odkłada się zakryte i tak powstaje stos odrzuconych kart. W tej lewie gracze nie muszą czekać na swoją kolej; przy stole sędziego gra się jednak po kolei.
  }
first-trick-void-plays-any = { $tochoo ->
    [yes] Także w pierwszej lewie gracz, który nie może dołożyć do koloru, zagrywa dowolną kartę w innym kolorze jako tochoo, tak jak w każdej innej lewie.
   *[no] W pierwszej lewie gracz, który nie może dołożyć do koloru, może zagrać dowolną kartę.
  }
first-trick-void-plays-highest = W pierwszej lewie gracz, który nie może dołożyć do koloru, musi zagrać jedną ze swoich najwyższych kart, w dowolnym kolorze.
first-trick-next-leader-as-other-tricks = { $discarded ->
     [yes] O tym, kto wychodzi do drugiej lewy, decydują zasady dla czystej lewy, nawet jeśli w pierwszej lewie są karty w innych kolorach.
    *[no] O tym, kto wychodzi do drugiej lewy, decydują te same zasady co po każdej innej lewie.
  }
first-trick-next-leader-first-leader = Gracz, który wyszedł do pierwszej lewy, wychodzi także do drugiej.

## Dokładanie do koloru.

rule-follow-suit = Wychodzący może wyjść dowolną kartą. Pozostali grają po kolei i muszą dołożyć do koloru, czyli zagrać kartę w kolorze wyjścia, jeśli taką mają. Którą kartę w tym kolorze zagrają, decydują sami.
rule-trick-complete = { $waste ->
    [yes] Gdy wszyscy zagrają, lewę wygrywa najwyższa karta w kolorze wyjścia, a karty lewy odkłada się zakryte na stos odrzuconych kart.
   *[no] Gdy wszyscy zagrają, lewę wygrywa najwyższa karta w kolorze wyjścia, a jej zwycięzca odkłada karty lewy zakryte poza grę: do końca rozdania nie biorą już w niej udziału.
  }
rule-trick-clean = { $waste ->
    [yes] Jeśli wszyscy dołożą do koloru, lewa jest czysta: wygrywa ją najwyższa karta w kolorze wyjścia, a jej karty odkłada się zakryte na stos odrzuconych kart.
   *[no] Jeśli wszyscy dołożą do koloru, lewa jest czysta: wygrywa ją najwyższa karta w kolorze wyjścia, a zwycięzca odkłada jej karty zakryte poza grę: do końca rozdania nie biorą już w niej udziału.
  }
off-suit-play-pickup = Gracz, który nie może dołożyć do koloru, nie zagrywa żadnej karty. Zamiast tego podnosi karty zagrane dotąd do lewy i bierze je do ręki. Na tym lewa się kończy.
off-suit-play-discard = Gracz, który nie może dołożyć do koloru, zrzuca dowolną kartę. Zrzutka nigdy nie wygrywa lewy, która toczy się dalej: kolejni gracze nadal do niej zagrywają.
off-suit-play-tochoo = Gracz, który nie może dołożyć do koloru, zagrywa dowolną kartę w innym kolorze: to tochoo, zwane też „thulla”. Tochoo od razu kończy lewę; kolejni gracze nie zagrywają już do niej żadnej karty.
off-suit-play-tochoo-plays-on = Gracz, który nie może dołożyć do koloru, zagrywa dowolną kartę w innym kolorze: to tochoo, zwane też „thulla”. Lewa toczy się jednak dalej i wszyscy do niej zagrywają. Lewę, w której padło tochoo, na końcu się podnosi; lewa bez tochoo jest czysta.
off-suit-tochoo-picked-up-by-highest-of-led = Po tochoo gracz, który zagrał najwyższą kartę w kolorze wyjścia, podnosi wszystkie karty lewy, razem z tochoo.
off-suit-tochoo-picked-up-by-tochoo-player = Po tochoo wszystkie karty lewy, razem z tochoo, podnosi gracz, który je zagrał (jeśli tochoo było kilka, to ten, kto zagrał pierwsze).
off-suit-pickup-takes-trick = Podnoszący bierze tylko karty tej lewy.
off-suit-pickup-takes-trick-and-waste = Podnoszący bierze karty tej lewy, a do tego cały stos odrzuconych kart.

## Atuty. $suit: the trump suit ("pik").

trump-none = Nie ma koloru atutowego.
trump-first-off-suit-card = Na początku nie ma atutu. Pierwsza karta zagrana przez gracza, który nie może dołożyć do koloru, wyznacza atut do końca rozdania: jej kolor staje się atutem. Sama ta karta liczy się jednak jak zwykła karta nie do koloru.
trump-fixed = W każdym rozdaniu atutem jest kolor { $suit }.
trump-dealer-choice = Przed pierwszym wyjściem rozdający wybiera kolor atutowy; dopóki tego nie zrobi, gra nie rusza.
rule-trump-beats = Gdy kolor atutowy jest już znany, atut zagrany przez gracza, który nie może dołożyć do koloru, nie kończy lewy: gra toczy się dalej, a najwyższy atut bije każdą kartę w kolorze wyjścia. Kto go zagrał, wygrywa lewę, a jeśli padło tochoo, podnosi ją.
rule-trump-high = Wszędzie tam, gdzie te zasady mówią o najwyższej karcie w kolorze wyjścia, pierwszeństwo ma atut w lewie: gracz, który zagrał najwyższy atut, wygrywa lewę albo ją podnosi i zamiast tamtego gracza wychodzi do następnej lewy.

## Karty zagrane wbrew zasadom.

illegal-play-reject = Nie wolno zagrać karty nie do koloru, jeśli można dołożyć do koloru: sędzia nie przyjmuje takiej karty i nic się nie zmienia. Trzeba zagrać kartę w kolorze wyjścia.
illegal-play-pickup-penalty = Gracz, który nie dołoży do koloru, choć mógł, bierze swoją kartę z powrotem i podnosi lewę, co ją kończy.
illegal-play-challenge = Można zagrać kartę nie do koloru, nawet jeśli da się dołożyć do koloru (to fałszywe tochoo). Taka karta działa jak każda inna karta nie do koloru, ale zaraz po lewie każdy inny gracz, który jeszcze bierze udział w rozdaniu, może ją zakwestionować. Niesłuszny zarzut nic nie kosztuje.
false-tochoo-penalty-bhabhi = Jeśli zarzut jest słuszny, rozdanie od razu się kończy, a gracz, który zagrał fałszywą kartę, zostaje Bhabhi.
false-tochoo-penalty-pickup-and-lead = Jeśli zarzut jest słuszny, gracz, który zagrał fałszywą kartę, podnosi karty tej lewy (od tego, kto je podniósł, albo ze stosu odrzuconych kart) i wychodzi do następnej lewy.
out-of-turn-refuse = Sędzia nie przyjmuje karty zagranej poza kolejnością i nic się nie zmienia.
out-of-turn-pickup-penalty = Gracz, który zagra poza kolejnością albo dołoży kartę do lewy już zakończonej przez tochoo, zatrzymuje tę kartę, podnosi lewę i wychodzi do następnej.

## Kto wychodzi do następnej lewy.

next-leader-after-complete-trick-highest = { $trick ->
     [every] Po każdej lewie do następnej lewy wychodzi gracz, który zagrał najwyższą kartę w kolorze wyjścia.
    *[clean] { $power ->
        [yes] Po czystej lewie gracz, który zagrał najwyższą kartę w kolorze wyjścia, ma moc i wychodzi do następnej lewy.
       *[no] Czystą lewę wygrywa gracz, który zagrał najwyższą kartę w kolorze wyjścia, i to on wychodzi do następnej lewy.
      }
  }
next-leader-after-complete-trick-lowest = { $trick ->
     [every] Po każdej lewie do następnej lewy wychodzi gracz, który zagrał najniższą kartę w kolorze wyjścia.
    *[clean] Po czystej lewie do następnej lewy wychodzi gracz, który zagrał najniższą kartę w kolorze wyjścia.
  }
next-leader-after-pickup-picker = Po lewie, którą ktoś podniósł, do następnej wychodzi ten, kto ją podniósł.
next-leader-after-pickup-highest = { $power ->
    [yes] Po lewie, którą ktoś podniósł, gracz, który zagrał najwyższą kartę w kolorze wyjścia, ma moc i wychodzi do następnej lewy.
   *[no] Po lewie, którą ktoś podniósł, do następnej lewy wychodzi gracz, który zagrał najwyższą kartę w kolorze wyjścia.
  }
next-leader-after-pickup-lowest = Po lewie, którą ktoś podniósł, do następnej wychodzi gracz, który zagrał najniższą kartę w kolorze wyjścia.
next-leader-after-pickup-tochoo-player = Po lewie, którą ktoś podniósł, do następnej wychodzi gracz, który zagrał tochoo.
next-leader-if-out-next-in-turn = Jeśli gracz, który powinien wyjść, nie ma już kart, ucieka i jest bezpieczny, a wychodzi następny po nim gracz, który ma jeszcze karty.
next-leader-if-out-draws-from-waste = Z mocą nie można uciec. Jeśli twoja ostatnia karta wygra czystą lewę, i tak musisz wyjść do następnej: zanim lewa trafi na stos odrzuconych kart, dobierasz kartę z tego zakrytego stosu i wychodzisz nią. Jeśli ktoś zagra wyższą kartę w tym kolorze, uciekasz i jesteś bezpieczny; jeśli nie, znów wychodzisz: po tochoo kartą spośród tych, które podniosłeś, a po czystej lewie kartą znów dobraną ze stosu.
next-leader-if-out-draws-from-player = Z mocą nie można uciec. Jeśli twoja ostatnia karta wygra czystą lewę, wyciągasz na ślepo jedną kartę z ręki innego gracza i wychodzisz nią. Jeśli była to jego ostatnia karta, to on ucieka.
next-leader-if-out-next-highest = Jeśli gracz, który powinien wyjść, nie ma już kart, wychodzi ten, kto zagrał następną co do wysokości kartę w kolorze wyjścia, o ile ma jeszcze karty, i tak dalej w dół lewy. Jeśli nikt z nich nie ma kart albo lewę ktoś podniósł, wychodzi następny w kolejności gracz, który ma jeszcze karty.
next-leader-draw-pile-waste = Dobierasz ze stosu odrzuconych kart, zanim trafią na niego karty właśnie rozegranej lewy.
next-leader-draw-pile-waste-and-trick = Karty właśnie rozegranej lewy najpierw trafiają na stos odrzuconych kart, więc możesz dobrać z powrotem jedną z nich.
next-leader-draw-random = Kartę dobiera się na chybił trafił z potasowanego stosu.
next-leader-draw-top = Dobierasz wierzchnią kartę stosu odrzuconych kart, czyli tę, która trafiła na niego ostatnia.
next-leader-if-waste-empty-goes-out = Jeśli stos odrzuconych kart jest pusty, mimo wszystko uciekasz, a wychodzi następny w kolejności gracz, który ma jeszcze karty.
next-leader-if-waste-empty-draws-from-trick = Jeśli stos odrzuconych kart jest pusty, najpierw trafia na niego właśnie rozegrana lewa i dobierasz spośród jej kart.
next-leader-draw-from-next-active = Dobierasz od następnego w kolejności gracza, który ma jeszcze karty.
next-leader-draw-from-chosen = Sam wybierasz, od kogo dobierasz; jeśli został tylko jeden inny gracz, dobierasz od niego.

## Ucieczka i gra we dwóch.

rule-going-out = Gracz, który po zakończeniu lewy nie ma już kart w ręce, ucieka: jest bezpieczny i nie bierze dalej udziału w rozdaniu.
rule-same-trick-out = Jeśli kilku graczy pozbędzie się kart w tej samej lewie, wszyscy oni są bezpieczni.
end-two-left-pickup-loses-true = Gdy zostaje dwóch graczy, lewa, którą trzeba podnieść, kończy rozdanie: Bhabhi zostaje ten, kto musi ją podnieść.
end-two-left-pickup-loses-false = { $shootout ->
    [yes] Gdy zostaje dwóch graczy, samo podniesienie lewy nie kończy rozdania; gra toczy się dalej, z wyjątkiem pojedynku opisanego niżej.
   *[no] Gdy zostaje dwóch graczy, samo podniesienie lewy nie kończy rozdania; gra toczy się dalej.
  }
end-two-left-tochoo-wins-true = Gdy zostaje dwóch graczy, tochoo od razu kończy rozdanie: kto je zagrał, jest bezpieczny, a drugi gracz zostaje Bhabhi.
end-two-left-tochoo-wins-false = { $shootout ->
    [yes] Gdy zostaje dwóch graczy, tochoo działa tak samo jak wcześniej, z wyjątkiem pojedynku opisanego niżej.
   *[no] Gdy zostaje dwóch graczy, tochoo działa tak samo jak wcześniej.
  }
end-shootout-none = Gdy zostaje dwóch graczy, nie gra się pojedynku (w którym wyjście kartą dobraną ze stosu, do której przeciwnik nie może dołożyć, od razu kończy rozdanie): gra toczy się jak dotąd.
end-shootout-after-waste-draw = Pojedynek: gdy zostaje dwóch graczy, a ty wyjdziesz kartą, którą właśnie dobrałeś, i drugi gracz nie może dołożyć do koloru, rozdanie od razu się kończy. Ty zostajesz Bhabhi, a drugi gracz jest bezpieczny.
end-shootout-any-last-card = Pojedynek: gdy zostaje dwóch graczy, a ty wyjdziesz swoją ostatnią kartą i drugi gracz nie może dołożyć do koloru, rozdanie od razu się kończy. Ty zostajesz Bhabhi, a drugi gracz jest bezpieczny.
end-two-left-power-escapes-true = Gdy zostaje dwóch graczy, gracz, którego ostatnia karta wygra czystą lewę, ucieka od razu, bez dobierania, a drugi gracz zostaje Bhabhi.
end-two-left-power-escapes-false = Gdy zostaje dwóch graczy, moc działa tak samo jak wcześniej: z mocą nadal nie można uciec.

## Branie cudzej ręki.

take-hand-when-never = Nie wolno brać kart innego gracza.
take-hand-when-before-any-trick = Przed każdą lewą każdy gracz, który ma jeszcze karty, może wziąć do swojej ręki wszystkie karty innego gracza. Gracz, któremu zabrano karty, uciekł i nie może już przegrać.
take-hand-when-leader-before-trick = Tylko gracz, który zaraz wyjdzie do lewy, może tuż przed wyjściem wziąć wszystkie karty innego gracza. Gracz, któremu zabrano karty, uciekł i nie może już przegrać.
take-hand-when-after-neighbour-tochoo = Sąsiad, który swoim tochoo zmusił cię do podniesienia lewy, jest ci winien swoją rękę: przed następną lewą, i tylko wtedy, możesz wziąć wszystkie jego karty do swojej ręki. Dług nieodebrany przed tą lewą przepada. Gracz, któremu zabrano karty, uciekł i nie może już przegrać.
take-hand-from-left = Bierzesz karty gracza siedzącego bezpośrednio po twojej lewej, a jeśli on już uciekł, to następnego zgodnie z ruchem wskazówek zegara, który ma jeszcze karty.
take-hand-from-right = Bierzesz karty gracza siedzącego bezpośrednio po twojej prawej, a jeśli on już uciekł, to następnego przeciwnie do ruchu wskazówek zegara, który ma jeszcze karty.
take-hand-from-next-in-turn = Bierzesz karty następnego w kolejności gracza, który ma jeszcze karty.
take-hand-from-either-neighbour = Sam wybierasz, od kogo bierzesz: od najbliższego gracza po lewej, który jeszcze gra, czy od najbliższego po prawej.
take-hand-from-any-player = Możesz wziąć karty dowolnego gracza, który jeszcze je ma; trzeba tylko powiedzieć, czyje.
take-hand-per-trick-one = Przed każdą lewą karty można zabrać tylko jednemu graczowi: liczy się pierwsze zgłoszenie.
take-hand-per-trick-any = Przed tą samą lewą karty można zabrać kilku graczom, jednemu po drugim, w kolejności zgłoszeń.
take-hand-per-trick-pass-in-turn = Przed każdą lewą branie kart obchodzi stół jeden raz, zaczynając od wychodzącego, w kierunku gry. Każdy, kto mógłby wziąć, jest po kolei pytany i musi wziąć albo spasować; nikt nie bierze dwa razy w jednym okrążeniu.
take-hand-lead-passes-to-taker = Jeśli zabrano karty graczowi, który miał wyjść, wychodzi ten, kto je wziął.
take-hand-lead-passes-to-next-in-turn = Jeśli zabrano karty graczowi, który miał wyjść, wychodzi następny w kolejności gracz, który ma jeszcze karty.
take-hand-consent-true = Branie kart to prośba: gracz, którego karty ktoś chce wziąć, musi się zgodzić albo odmówić, zanim ktokolwiek zagra dalej. Po odmowie nic się nie zmienia, a ten sam gracz nie może go już prosić przed tą lewą.
take-hand-consent-false = Nie trzeba pytać o zgodę gracza, któremu zabiera się karty.
take-hand-before-first-trick-true = Karty innych graczy wolno brać także przed pierwszą lewą.
take-hand-before-first-trick-false = Przed pierwszą lewą nie wolno brać niczyich kart.
take-hand-with-two-left-true = Cudze karty wolno wziąć nawet wtedy, gdy zostało tylko dwóch graczy, choć biorący zostaje wtedy Bhabhi.
take-hand-with-two-left-false = Gdy zostaje tylko dwóch graczy, nie wolno już brać cudzych kart.

## Koniec rozdania. $count: a number of tricks.

rule-bhabhi-loses = Gdy uciekną wszyscy gracze oprócz jednego, ten, kto wciąż ma karty, zostaje Bhabhi i przegrywa rozdanie. Wszyscy pozostali je wygrywają; za karty nie liczy się punktów.
end-all-out-together-no-bhabhi = { $never ->
    [yes] Ostatni gracze nie mogą pozbyć się kart w tej samej lewie: kto ją wygra, ma moc i nie może uciec, więc gdy wszyscy inni już uciekli, zostaje Bhabhi, nawet bez kart w ręce. (Zasada na wypadek, gdy nikt nie zostanie z kartami, że nikt nie jest Bhabhi, nigdy więc nie ma zastosowania.)
   *[no] Jeśli ostatni gracze pozbędą się kart w tej samej lewie, tak że nikt nie zostanie z kartami, nikt nie jest Bhabhi: rozdanie nie ma przegranego.
  }
end-all-out-together-last-to-play = { $never ->
    [yes] Ostatni gracze nie mogą pozbyć się kart w tej samej lewie: kto ją wygra, ma moc i nie może uciec, więc gdy wszyscy inni już uciekli, zostaje Bhabhi, nawet bez kart w ręce. (Zasada na wypadek, gdy nikt nie zostanie z kartami, że Bhabhi zostaje ten, kto jako ostatni zagrał kartę, nigdy więc nie ma zastosowania.)
   *[no] Jeśli ostatni gracze pozbędą się kart w tej samej lewie, tak że nikt nie zostanie z kartami, Bhabhi zostaje ten z nich, kto jako ostatni zagrał kartę.
  }
end-all-out-together-trick-winner = { $never ->
    [yes] Ostatni gracze nie mogą pozbyć się kart w tej samej lewie: kto ją wygra, ma moc i nie może uciec, więc gdy wszyscy inni już uciekli, zostaje Bhabhi, nawet bez kart w ręce. (Zasada na wypadek, gdy nikt nie zostanie z kartami, że Bhabhi zostaje gracz, który zagrał najwyższą kartę w kolorze wyjścia, nigdy więc nie ma zastosowania.)
   *[no] Jeśli ostatni gracze pozbędą się kart w tej samej lewie, tak że nikt nie zostanie z kartami, Bhabhi zostaje gracz, który zagrał najwyższą kartę w kolorze wyjścia.
  }
end-at-dead-position-no-bhabhi = { $detected ->
    [yes] W rozdaniu może powstać sytuacja, w której nikt już nie zdoła uciec, cokolwiek kto zagra. Sędzia rozpoznaje to po zakończeniu lewy i rozdanie kończy się wtedy bez Bhabhi.
   *[no] Przy tych zasadach sędzia nie sprawdza, czy w rozdaniu powstała sytuacja, w której nikt już nie zdoła uciec: każde rozdanie, które nie skończy się samo, kończy limit opisany niżej. (Zasada na taką sytuację, że rozdanie kończy się wtedy bez Bhabhi, nigdy więc nie ma zastosowania.)
  }
end-at-dead-position-most-cards = { $detected ->
    [yes] W rozdaniu może powstać sytuacja, w której nikt już nie zdoła uciec, cokolwiek kto zagra. Sędzia rozpoznaje to po zakończeniu lewy i rozdanie się wtedy kończy: Bhabhi zostaje gracz, który ma najwięcej kart (jeśli kilku ma ich tyle samo, nikt nie jest Bhabhi).
   *[no] Przy tych zasadach sędzia nie sprawdza, czy w rozdaniu powstała sytuacja, w której nikt już nie zdoła uciec: każde rozdanie, które nie skończy się samo, kończy limit opisany niżej. (Zasada na taką sytuację, że Bhabhi zostaje gracz z największą liczbą kart, nigdy więc nie ma zastosowania.)
  }
end-at-dead-position-play-on = W rozdaniu może powstać sytuacja, w której nikt już nie zdoła uciec, cokolwiek kto zagra. Mimo to gra się dalej, aż do limitu podanego niżej.
end-max-tricks = Rozdanie trwa najwyżej { $count ->
    [one] jedną lewę.
    [few] { $count } lewy.
    [many] { $count } lew.
   *[other] { $count } lewy.
  }
end-at-max-tricks-no-bhabhi = Rozdanie, które osiągnie ten limit, jest nieważne: nikt nie jest Bhabhi.
end-at-max-tricks-most-cards = Gdy rozdanie osiągnie ten limit, Bhabhi zostaje gracz, który ma najwięcej kart (jeśli kilku ma ich tyle samo, nikt nie jest Bhabhi).

## Partia, liczenie i żetony. $count: a number of hands, of times, of chips.

session-hands = { $count ->
    [one] Partia to jedno rozdanie.
    [few] Partia to { $count } rozdania.
    [many] Partia to { $count } rozdań.
   *[other] Partia to { $count } rozdania.
  }
session-hands-none = Partia nie ma ustalonej liczby rozdań.
session-bhabhi-limit = { $count ->
    [one] Partia kończy się, gdy tylko ktoś zostanie Bhabhi.
    [few] Partia kończy się, gdy tylko któryś gracz zostanie Bhabhi łącznie { $count } razy.
    [many] Partia kończy się, gdy tylko któryś gracz zostanie Bhabhi łącznie { $count } razy.
   *[other] Partia kończy się, gdy tylko któryś gracz zostanie Bhabhi łącznie { $count } raza.
  }
session-bhabhi-limit-none = Partia nie kończy się przed czasem, bez względu na to, ile razy ktoś zostanie Bhabhi.
rule-session-loser = Zapisuje się, ile razy każdy gracz był Bhabhi: partię przegrywa ten, kto był nim najczęściej.
session-chips = Gra się o żetony, a stawka wynosi { $count ->
    [one] jeden żeton
    [few] { $count } żetony
    [many] { $count } żetonów
   *[other] { $count } żetonu
  }. Na koniec partii pulę zabiera gracz, który najmniej razy przegrał; gracze z takim samym wynikiem dzielą ją po równo, a to, czego nie da się podzielić, zostaje w puli.
session-chips-none = Nie gra się o żetony.
session-chips-by-bhabhi = Każdy Bhabhi wpłaca stawkę do puli.
session-chips-by-card-points = Każdy Bhabhi wpłaca do puli stawkę za każdy punkt kart, które zostały mu w ręce: blotki liczą tyle, ile mają oczek, walet, dama i król po 10, as 1. Bhabhi bez kart w ręce nic nie płaci.

## Gra z sędzią: zegar i to, co widać.

timeout-move-lowest-card = Jeśli graczowi skończy się czas, sędzia zagrywa za niego najniższą kartę, którą wolno mu zagrać{ $pickup ->
    [yes] , a jeśli nie może zagrać żadnej, podnosi za niego.
   *[no] .
  }{ $takes ->
    [yes] {" "}Po upływie czasu sędzia nigdy nie bierze za gracza cudzych kart.
   *[no] {""}
  }
timeout-move-highest-card = Jeśli graczowi skończy się czas, sędzia zagrywa za niego najwyższą kartę, którą wolno mu zagrać{ $pickup ->
    [yes] , a jeśli nie może zagrać żadnej, podnosi za niego.
   *[no] .
  }{ $takes ->
    [yes] {" "}Po upływie czasu sędzia nigdy nie bierze za gracza cudzych kart.
   *[no] {""}
  }
timeout-bot-after = Gdy graczowi { $count ->
    [one] raz
    [few] { $count } razy z rzędu
    [many] { $count } razy z rzędu
   *[other] { $count } raza z rzędu
  } skończy się czas, sędzia od razu gra za niego, bez czekania, dopóki gracz znów nie zagra sam.
timeout-bot-after-none = Bez względu na to, ile razy graczowi skończy się czas, sędzia za każdym razem czeka do końca czasu.
hand-sizes-public = Każdy widzi, ile kart ma każdy z graczy.
hand-sizes-hidden = Widzisz, ile masz kart, ale nie widzisz, ile mają inni. Wiadomo jednak, które odkryte karty kto podniósł.

## Skąd pochodzą te zasady. $name: a source's title; $follows: what is taken from it (English).

source-named = { $name }
source-follows = { $name }: { $follows }

## Słowniczek. Each message is the meaning; its .term is the word itself.

glossary-bhabhi = W hindi i urdu „bratowa”: przegrany rozdania, czyli ostatni gracz, który został z kartami. Często tak nazywa się też samą grę.
    .term = Bhabhi
glossary-getaway = Nazwa gry w Pakistanie i wśród wielu graczy za granicą, od jej celu: uciec (ang. get away), czyli pozbyć się wszystkich kart. Pisane też Get Away.
    .term = Getaway
glossary-thulla = Inna nazwa tochoo, karty nie do koloru, która kończy lewę; w niektórych regionach nazwa całej gry.
    .term = Thulla
glossary-tochoo = Karta nie do koloru, zagrana przez gracza, który nie może dołożyć do koloru. W Bhabho od razu kończy lewę, którą trzeba wtedy podnieść.
    .term = Tochoo
glossary-bhabho = Odmiana gry, w której liczy się moc: dopóki masz moc, czyli wychodzisz do następnej lewy, nie możesz uciec; wolno też wziąć wszystkie karty sąsiada z lewej.
    .term = Bhabho
glossary-laad = Inna nazwa Bhabho.
    .term = Laad
glossary-kazhutha = W języku malajalam „osioł”: gra w wersji z Kerali, w której przegrany zostaje osłem. Zwana też Donkey, czyli po angielsku osioł.
    .term = Kazhutha
glossary-vettu = W języku malajalam „cięcie”: keralskie słowo na tochoo.
    .term = Vettu
glossary-haath = W hindi i urdu „ręka”: karty, które gracz trzyma w ręce; stąd „zabrać komuś rękę”, czyli wszystkie jego karty.
    .term = Haath

## Przykłady: jedna lewa z rozgrywki przypadków zgodności, pod regułą, którą pokazuje.
## $case: nazwa przypadku (bez tłumaczenia); $players: liczba graczy; $plays: karty lewy w
## kolejności zagrania, każda zapisana przez example-play i połączone jak lista; $seat: numer
## miejsca; $count: liczba kart.

example-trick = Przykład ({ $case }, { $players ->
    [one] { $players } gracz
    [few] { $players } gracze
    [many] { $players } graczy
   *[other] { $players } gracza
  }): { $plays }.
example-play = miejsce { $seat } { rank-short }{ $symbol }
example-clean = Wszyscy dołożyli do koloru, a miejsce { $seat } zagrało najwyższą kartę.
example-off-suit = Miejsce { $seat } nie mogło dołożyć do koloru i zagrało kartę w innym kolorze.
example-highest = Miejsce { $seat } zagrało najwyższą kartę w kolorze wyjścia.
example-trump-highest = Miejsce { $seat } zagrało najwyższy atut.
example-tochoo = Miejsce { $seat } nie mogło dołożyć do koloru i zagrało tochoo, które kończy lewę.
example-cannot-follow = Miejsce { $seat } nie może dołożyć do koloru.
example-picks-up = Miejsce { $seat } podnosi { $count ->
    [one] tę kartę
    [few] { $count } karty
    [many] { $count } kart
   *[other] { $count } karty
  }.
example-out = Miejsce { $seat } nie ma już kart i ucieka.
example-leads = Miejsce { $seat } wychodzi do następnej lewy.
example-bhabhi = Miejsce { $seat } jest Bhabhi.

## Katalog reguł: tytuł i treść każdej reguły (rules/catalogue.yaml), w kolejności katalogu.
## Bez zmiennych. "tochoo" jest nieodmienne; "thulla" odmienia się jak rzeczownik żeński
## (thulli, thullę, thullą). Numery reguł (B8, H12) i zapis kart zostają jak w katalogu.

clause-C1 = Jedna talia 52 kart bez jokerów: cztery kolory (trefl, karo, kier i pik), w każdym po trzynaście kart. W kolorze najwyższy jest as, potem król, dama, walet i dziesiątka, i tak dalej w dół aż do dwójki. Nie ma koloru atutowego.
    .title = Talia
clause-C2 = Grać może od trzech do ośmiu osób i każdy gra na siebie.
    .title = Gracze
clause-C3 = Karty rozdaje się i zagrywa w tym samym kierunku wokół stołu; przed rozpoczęciem gry gracze ustalają, w którym.
    .title = Kierunek gry
clause-C4 = Rozdający rozdaje całą talię po jednej karcie, po kolei w kierunku gry. Jeśli 52 nie dzieli się bez reszty przez liczbę graczy, niektórzy gracze mają w ręce o jedną kartę więcej niż pozostali.
    .title = Rozdawanie
clause-C5 = Pierwszego rozdającego wybiera się w dowolny sposób, na jaki zgodzą się gracze; po każdym rozdaniu rozdawanie przechodzi dalej wokół stołu.
    .title = Rozdający
clause-C6 = Gracz, który dostał asa pik, wychodzi nim do pierwszej lewy. Gdyby ta karta nie brała udziału w grze, zamiast niego wychodziłby gracz z najwyższą kartą w kolorze pik. Gdy rozdaje się od nowa całą talię, tej karty nigdy nie brakuje, ale zestaw zasad, który zmienia talię albo kartę otwierającą grę, musi określić, co się wtedy dzieje.
    .title = Pierwsze wyjście
clause-C7 = Gracz, który ma choć jedną kartę w kolorze wyjścia, musi zagrać jedną z nich i sam wybiera którą. Wychodzący może wyjść dowolną kartą.
    .title = Dokładanie do koloru
clause-C8 = Jeśli wszyscy dołożyli do koloru, lewę wygrywa najwyższa karta w kolorze wyjścia. Karty lewy odkłada się zakryte i do końca rozdania nie biorą one udziału w grze (to stos odrzuconych kart), a zwycięzca lewy wychodzi do następnej.
    .title = Czysta lewa
clause-C9 = Gracz, który po zakończeniu lewy nie ma już kart w ręce, ucieka: jest bezpieczny i do końca rozdania nie bierze udziału w grze.
    .title = Ucieczka
clause-C10 = Rozdanie kończy się, gdy karty ma już tylko jeden gracz. Ten gracz zostaje Bhabhi i przegrywa rozdanie; wszyscy pozostali je wygrywają.
    .title = Koniec rozdania
clause-C11 = Jeśli dwóch graczy pozbędzie się kart w tej samej lewie, obaj są bezpieczni.
    .title = Ucieczka w tej samej lewie
clause-C12 = Nie wolno zagrać karty nie do koloru, mając kartę w kolorze wyjścia. Przy stole gracz, który tak zagrał, bierze swoją kartę z powrotem i zagrywa kartę do koloru; w wersji z podnoszeniem można zamiast tego kazać mu podnieść lewę. Sędzia musi co najmniej odrzucić taką kartę, jasno podając powód, i zostawić grę w niezmienionym stanie; kara nie jest obowiązkowa.
    .title = Zagranie wbrew zasadom
clause-C13 = Każde rozdanie ma jednego przegranego, Bhabhi; wszyscy pozostali gracze je wygrywają. Za karty nie liczy się punktów.
    .title = Wynik rozdania
clause-C14 = W trakcie partii zapisuje się, ile rozdań każdy gracz przegrał jako Bhabhi. Partia kończy się po liczbie rozdań uzgodnionej z góry albo wtedy, gdy ktoś osiągnie uzgodnioną liczbę porażek (w niektórych grupach trzy); partię przegrywa ten, kto przegrywał najczęściej.
    .title = Wynik partii
clause-C15 = Można też grać o żetony: za każdym razem, gdy ktoś zostaje Bhabhi, do wspólnej puli trafia jeden żeton, a na koniec partii pulę zabiera gracz z najmniejszą liczbą porażek.
    .title = Żetony
clause-C16 = Między rozdaniami całą talię tasuje się od nowa i rozdaje wszystkim graczom partii, także tym, którzy uciekli.
    .title = Ponowne rozdanie
clause-P1 = W wersji z podnoszeniem gracz, który nie może dołożyć do koloru, nie zagrywa żadnej karty; zamiast tego bierze do ręki wszystkie karty zagrane dotąd do lewy.
    .title = Podniesienie lewy
clause-P2 = Podniesienie od razu kończy lewę, a do następnej wychodzi ten, kto ją podniósł.
    .title = Wychodzi podnoszący
clause-P3 = Po czystej lewie wychodzi jej zwycięzca; jeśli właśnie uciekł, wychodzi następny w kolejności gracz, który ma jeszcze karty.
    .title = Wychodzący bez kart
clause-D1 = W wersji ze zrzucaniem gracz, który nie może dołożyć do koloru, może zrzucić dowolną kartę. Zrzutka nigdy nie wygrywa, a lewa toczy się dalej.
    .title = Zrzutka
clause-D2 = Gdy wszyscy gracze zagrają do lewy, wygrywa ją najwyższa karta w kolorze wyjścia; karty lewy nie biorą już udziału w grze, a zwycięzca wychodzi do następnej.
    .title = Lewa ze zrzutkami
clause-V1 = Do następnej lewy wychodzi nie zwycięzca lewy, lecz jej przegrany, czyli gracz, który zagrał najniższą kartę w kolorze wyjścia.
    .title = Get Away (wersja pakistańska)
clause-V2 = Gracze grają w parach, a partnerzy siedzą naprzeciwko siebie; gdy rozdanie się kończy, przegrywa para, której gracz został z kartami. Liczba graczy musi być parzysta.
    .title = Bhabhi w parach
clause-V3 = W niektórych grupach as jest niższy od dwójki. Do pierwszej lewy wychodzi się wtedy dwójką pik albo, zależnie od zwyczaju grupy, nadal asem pik.
    .title = As najniższy
clause-V4 = Gracz, który nie może dołożyć do koloru, bierze nie tylko bieżącą lewę, ale też wszystkie wcześniejsze lewy leżące na środku stołu.
    .title = Podnoszenie całego stosu
clause-V5 = Zwycięzca każdej lewy wychodzi do następnej; jeśli zwycięzca uciekł, wychodzi następny w kolejności gracz. Dokument „How to Play” wymienia to jako osobną odmianę, choć zasada ta mówi to samo co P3.
    .title = Wychodzi najwyższa karta
clause-B1 = Gracz, który ma asa pik, wychodzi nim, a potem każdy z pozostałych graczy zagrywa jedną kartę: kartę w kolorze pik, jeśli taką ma, a jeśli nie, dowolną. Nic nie kończy tej lewy przed czasem, a wszystkie jej karty trafiają zakryte na stos odrzuconych kart. Dokument dodaje, że w tej lewie gracze nie muszą czekać na swoją kolej.
    .title = Pierwsza lewa
clause-B2 = Do drugiej lewy wychodzi gracz, który miał asa pik.
    .title = Druga lewa
clause-B3 = Od drugiej lewy wychodzi ten, kto w poprzedniej lewie zagrał najwyższą kartę w kolorze wyjścia: mówi się, że „ma moc”.
    .title = Moc
clause-B4 = Gracz, który nie może dołożyć do koloru, może zagrać dowolną kartę. Ta karta nie do koloru, czyli tochoo albo thulla, od razu kończy lewę: kolejni gracze nic już do niej nie zagrywają.
    .title = Tochoo (thulla)
clause-B5 = Gdy wszyscy dołożyli do koloru, karty lewy trafiają zakryte na stos odrzuconych kart.
    .title = Czysta lewa
clause-B6 = Po tochoo gracz, który zagrał najwyższą kartę w kolorze wyjścia, bierze do ręki wszystkie karty lewy, razem z tochoo. (Według P1 podnosi gracz, który nie mógł dołożyć do koloru.)
    .title = Kto podnosi
clause-B7 = Bez względu na to, czy lewa była czysta, czy zakończyło ją tochoo, gracz, który zagrał najwyższą kartę w kolorze wyjścia, ma teraz moc i wychodzi do następnej lewy.
    .title = Wychodzi ten, kto ma moc
clause-B8 = Nikt nie może uciec, dopóki ma moc. Jeśli twoja ostatnia karta wygra czystą lewę, musisz dobrać na chybił trafił kartę z zakrytego stosu odrzuconych kart (potasowanego, na który ta lewa jeszcze nie trafiła) i wyjść nią. Jeśli inny gracz zagra wyższą kartę w tym kolorze, uciekasz i jesteś bezpieczny; jeśli nie, znów wychodzisz: kartą spośród tych, które podniosłeś, jeśli lewę zakończyło tochoo, a w przeciwnym razie kartą dobraną ponownie.
    .title = Z mocą nie można uciec
clause-B9 = Na początku każdej lewy gracz może wziąć do swojej ręki wszystkie karty gracza siedzącego bezpośrednio po jego lewej (a jeśli ten już uciekł, to następnego dalej wokół stołu, który ma jeszcze karty). Gracz, któremu zabrano karty, uciekł i nie może już przegrać.
    .title = Branie cudzej ręki
clause-X1 = Rękę lewego sąsiada można wziąć tylko we własnej kolejce, czyli jako gracz, który zaraz wyjdzie do następnej lewy, a nie przed każdą lewą jak w B9.
    .title = Branie ręki tylko we własnej kolejce
clause-X2 = Gdy zostaje już tylko dwóch graczy, lewa zakończona tochoo (albo podniesieniem) kończy rozdanie, a Bhabhi zostaje ten, kto musiałby ją podnieść.
    .title = Dwóch graczy: tochoo kończy rozdanie
clause-X3 = W pierwszej lewie gracz, który nie ma żadnej karty w kolorze pik, może zrzucić dowolną kartę i nie liczy się ona jako tochoo: to samo co B1, zapisane jako osobna opcja.
    .title = Wyjątek w pierwszej lewie
clause-X4 = Przy więcej niż ośmiu graczach tasuje się razem dwie talie. Z dwóch takich samych kart w jednej lewie wyższa jest ta zagrana wcześniej.
    .title = Dwie talie
clause-X5 = W tej grze jest atut: zostaje nim kolor pierwszej karty zagranej przez gracza, który nie mógł dołożyć do koloru.
    .title = Osioł (Kerala)
clause-H1 = Przed rozdaniem wyjmuje się z talii najniższe karty (najpierw dwójki, potem trójki i tak dalej), aż każdy gracz będzie mógł dostać tyle samo kart; wyjęte karty nie biorą udziału w grze.
    .title = Równe ręce
clause-H2 = Bhabhi jednego rozdania rozdaje karty w następnym; albo rozdawanie przechodzi na tego, kto jako ostatni podnosił lewę.
    .title = Rozdaje przegrany
clause-H3 = Grać mogą też dwie osoby, więcej niż osiem osób przy jednej talii (najwyżej dziesięć) albo do dwunastu osób przy kilku taliach.
    .title = Inna liczba graczy
clause-H4 = Karty rozdaje się w kolejności miejsc, nawet jeśli gra toczy się w przeciwną stronę.
    .title = Rozdawanie według miejsc
clause-H5 = W pierwszej lewie gracz, który nie ma pików, musi zagrać swoją najwyższą kartę, w dowolnym kolorze; spośród kart tej samej wysokości wybiera dowolną.
    .title = Bez pików gra się najwyższą kartą
clause-H6 = Gracz, który ma asa pik, zaczyna rozdanie, ale może wyjść dowolną kartą.
    .title = Dowolne pierwsze wyjście
clause-H7 = Pierwszą lewę otwiera inna karta niż as pik, na przykład as trefl.
    .title = Inna karta otwierająca
clause-H8 = Karta nie do koloru w pierwszej lewie to thulla, tak samo jak w każdej innej lewie.
    .title = Bez wyjątku w pierwszej lewie
clause-H9 = Po thulli pozostali gracze nadal zagrywają do lewy; lewę podnosi gracz, który zagrał najwyższą kartę w kolorze wyjścia, a do następnej wychodzi ten, kto zagrał thullę.
    .title = Thulla nie przerywa lewy
clause-H10 = Jeśli zwycięzca czystej lewy nie ma już kart, wychodzi gracz, który zagrał drugą co do wysokości kartę.
    .title = Wychodzi druga najwyższa karta
clause-H11 = Gracz, który podnosi, zostaje rozdającym albo wychodzi; albo thulla działa odwrotnie i podnosi gracz, który nie mógł dołożyć do koloru.
    .title = Podnoszący rozdaje albo wychodzi; odwrócona thulla
clause-H12 = Kolor atutowy ustala się przed rozpoczęciem rozdania albo wybiera go rozdający: to inne sposoby niż w X5, gdzie atut wyznacza pierwsza karta nie do koloru.
    .title = Atut wybierany inaczej
clause-H13 = Gracz, którego ostatnia karta wygra czystą lewę, od razu ucieka, a wychodzi następny gracz, który ma jeszcze karty.
    .title = Natychmiastowa ucieczka
clause-H14 = Gracz, którego ostatnia karta wygra czystą lewę, zamiast ze stosu odrzuconych kart (B8) dobiera na chybił trafił kartę z ręki innego gracza: następnego, który jeszcze gra, albo wybranego przez siebie.
    .title = Dobieranie od gracza
clause-H15 = Kartę dobieraną według B8 bierze się ze stosu odrzuconych kart, na który trafiła już właśnie rozegrana lewa.
    .title = Stos razem z ostatnią lewą
clause-H16 = Według B8 dobiera się wierzchnią kartę stosu odrzuconych kart, a nie kartę wybraną na chybił trafił.
    .title = Wierzchnia karta stosu
clause-H17 = Gdy zostaje dwóch graczy i jeden z nich wychodzi kartą dobraną ze stosu odrzuconych kart (B8), a przeciwnik nie może dołożyć do koloru, rozdanie od razu się kończy: dobierający przegrywa jako Bhabhi, a przeciwnik jest bezpieczny.
    .title = Pojedynek
clause-H18 = Gdy zostaje dwóch graczy, o rozdaniu rozstrzyga pierwsza thulla: kto ją zagrał, jest bezpieczny, a drugi gracz zostaje Bhabhi.
    .title = Dwóch graczy: wygrywa thulla
clause-H19 = Zasada nagłej śmierci dla dwóch ostatnich graczy, stosowana wtedy, gdy ten, komu skończyły się karty, zagrał najwyższą kartę; jedyne źródło urywa się, zanim wyjaśni, jak wtedy rozstrzyga się rozdanie.
    .title = Nagła śmierć we dwóch
clause-H20 = Rękę można wziąć tylko wtedy, gdy zgodzi się na to gracz, który ją trzyma.
    .title = Zgoda na branie ręki
clause-H21 = Nie wolno brać niczyjej ręki przed pierwszą lewą ani wtedy, gdy zostało już tylko dwóch graczy.
    .title = Branie nie za wcześnie i nie za późno
clause-H22 = Przed każdą lewą graczy pyta się jeden raz, po kolei według miejsc, zaczynając od wychodzącego, czy chcą wziąć czyjąś rękę; nikt nie bierze więcej niż raz.
    .title = Jedno okrążenie brania
clause-H23 = Trzy inne odpowiedzi na pytanie, czyją rękę można wziąć: bierze tylko gracz, który zaraz wyjdzie (czyli ma moc), i to od następnego gracza, który jeszcze gra; albo każdy bierze od jednego ze swoich sąsiadów; albo od kogokolwiek.
    .title = Kto od kogo bierze
clause-H24 = Sąsiad, który zagra przeciwko tobie thullę, jest ci winien swoją rękę.
    .title = Dług za thullę
clause-H25 = Można zagrać kartę nie do koloru, mając jeszcze kartę w kolorze wyjścia (to fałszywa thulla), a każdy gracz może to zakwestionować. Jeśli zarzut jest słuszny, winny od razu zostaje Bhabhi albo, w wersji z serwisu Pagat, podnosi lewę i wychodzi; niesłuszny zarzut nic nie kosztuje.
    .title = Fałszywa thulla i zarzuty
clause-H26 = Kto zagra kartę, gdy tochoo już zakończyło lewę, albo zagra nie w swojej kolejce, musi podnieść lewę, a potem wyjść.
    .title = Kara za grę poza kolejnością
clause-H27 = Za gracza, któremu skończy się czas, zagrywa się jego najniższą dozwoloną kartę; albo, gdy dwa razy nie zdąży z ruchem, jego miejsce przejmuje bot; albo następny gracz daje mu swoją najniższą kartę.
    .title = Koniec czasu
clause-H28 = Bhabhi wpłaca wartość kart, które zostały mu w ręce (figura liczy się za 10, pozostałe karty tyle, ile mają oczek), pomnożoną przez stawkę.
    .title = Żetony za punkty kart
clause-H29 = Gracze nie widzą, ile kart mają pozostali.
    .title = Ukryta liczba kart
clause-H30 = Jeśli wszyscy gracze, którzy mają jeszcze karty, pozbędą się ich w jednej lewie, przegrywa zwycięzca tej lewy; albo ten z nich, kto zagrał jako ostatni; albo nikt nie przegrywa.
    .title = Wszyscy uciekają naraz
clause-H31 = Gdy rozdanie dojdzie do stanu, w którym nie może się już nigdy skończyć (martwa pozycja), albo gra się dalej aż do limitu długości rozdania, albo rozstrzyga się je wynikiem, który jest taki sam bez względu na to, kiedy wykryto martwą pozycję.
    .title = Martwa pozycja
