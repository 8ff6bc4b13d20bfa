"""The display-name corpus: hostile names by attack, each with the kind of refusal it
must get (``NameRefused.kind``), and real names that must pass. Data only: the tests
are in ``test_names.py``. Written with escapes wherever a character cannot be seen.

The attacks are spread over Latin, Cyrillic, Greek, Bengali and Hangul names.
"""

from __future__ import annotations

#: attack -> [(name, expected kind)]
HOSTILE: dict[str, list[tuple[str, str]]] = {
    # Default-ignorable code points: invisible, so the name shows as another.
    "default_ignorable": [
        ("Robert\u034f", "invisible"),  # combining grapheme joiner
        ("Ann\u00adna", "invisible"),  # soft hyphen
        ("Bo\u200bb", "invisible"),  # zero width space
        ("Iv\u2060an", "invisible"),  # word joiner
        ("Rob\u200dert", "invisible"),  # a joiner with no virama beside it
        ("Ann\u200cie", "invisible"),  # a non-joiner between Latin letters
        ("Lena\u200e", "invisible"),  # left-to-right mark
        ("Sam\u202eevil", "invisible"),  # right-to-left override
        ("Tom\ufeff", "invisible"),  # zero width no-break space
        ("Ma\u180eria", "invisible"),  # Mongolian vowel separator
        ("Max\u2064", "invisible"),  # invisible plus
        ("Ива\u200bн", "invisible"),
        ("Ив\u2060ан", "invisible"),
        ("Νίκος\u200b", "invisible"),
        ("Νί\u00adκος", "invisible"),
        ("দীপা\u200b", "invisible"),
        ("দী\u2060পা", "invisible"),
        ("김민\u200b준", "invisible"),
        ("김\u2060민준", "invisible"),
        ("\u200dরাব", "invisible"),  # a joiner at the start
    ],
    # Fillers: Hangul's and Khmer's blank letters, which NFKC does not remove.
    "filler": [
        ("Robert\u3164", "invisible"),  # issue 13: stored as U+1160
        ("Robert\u1160", "invisible"),
        ("Robert\u115f", "invisible"),
        ("Kim\uffa0", "invisible"),
        ("Dana\u17b4", "invisible"),
        ("Dana\u17b5", "invisible"),
        ("\u3164Robert", "invisible"),
        ("Ro\u1160bert", "invisible"),
        ("Anna\u115f\u1160", "invisible"),
        ("Jürgen\u17b4", "invisible"),
        ("김민준\u3164", "invisible"),
        ("민\u3164준", "invisible"),
        ("민준\uffa0", "invisible"),
        ("Ива\u3164н", "invisible"),
        ("Νίκος\u1160", "invisible"),
        ("দীপা\u115f", "invisible"),
    ],
    "variation_selector": [
        ("Robert\ufe0f", "invisible"),
        ("Anna\ufe0e", "invisible"),
        ("Bob\ufe00", "invisible"),
        ("Ivan\U000e0100", "invisible"),
        ("Lisa\U000e01ef", "invisible"),
        ("Max\ufe01", "invisible"),
        ("Eve\u180b", "invisible"),  # Mongolian free variation selector
        ("Ива\ufe0fн", "invisible"),
        ("Ольга\ufe0e", "invisible"),
        ("Νίκος\ufe0f", "invisible"),
        ("Σοφία\ufe0f", "invisible"),
        ("দীপা\ufe0f", "invisible"),
        ("রায়\ufe0e", "invisible"),
        ("김민준\ufe0f", "invisible"),
        ("민준\U000e0100", "invisible"),
    ],
    # Repeated or stacked non-spacing marks (UTS #39 section 5.4).
    "mark_stack": [
        ("Zalgo\u0301\u0301\u0301\u0301", "marks"),  # issue 13
        ("Zalgo\u0300\u0301\u0302\u0303", "marks"),  # four different ones
        ("Z" + "\u0301" * 8 + "oe", "marks"),
        ("Ann\u0308\u0308", "marks"),
        ("Bob\u0327\u0327", "marks"),
        ("Jose\u0301\u0301", "marks"),  # a second acute on the composed é
        ("Mia\u0323\u0302\u0306\u0309", "marks"),
        ("\u0301abc", "marks"),  # a mark on no letter
        ("Ива\u0306\u0306н", "marks"),
        ("Ольга\u0308\u0301\u0300\u0302", "marks"),
        ("Νί\u0301κος", "marks"),  # the tonos again, as an acute
        ("Σοφία\u0308\u0308", "marks"),
        ("দী\u0981\u0981পা", "marks"),  # candrabindu twice
        ("দীপা\u09bc\u09bc", "marks"),  # nukta twice
        ("김\u0301\u0301민준", "marks"),
        ("민준\u0300\u0301\u0302\u0303", "marks"),
    ],
    "mixed_script": [
        ("B\u043eb", "mixed_script"),  # a Cyrillic o
        ("P\u0430ypal", "mixed_script"),
        ("Paypa\u03b9", "mixed_script"),  # a Greek iota
        ("Iv\u0430n", "mixed_script"),
        ("\u0418van", "mixed_script"),
        ("\u039dikos", "mixed_script"),
        ("Иван Petrov", "mixed_script"),
        ("Ольга Smith", "mixed_script"),
        ("Σοφία Ivanova", "mixed_script"),
        ("দীপা Roy", "mixed_script"),
        ("Rob রায়", "mixed_script"),
        ("김 Иван", "mixed_script"),
        ("민준 Νίκος", "mixed_script"),
        ("দীপা 민준", "mixed_script"),
        ("Bob 1২", "mixed_script"),  # digits of two systems
        ("Иван Σοφία", "mixed_script"),
    ],
    # A name in one script whose every letter looks like another script's.
    "whole_script": [
        ("ѕсоре", "whole_script"),  # Cyrillic for "scope"
        ("ВОВ", "whole_script"),
        ("ТОР", "whole_script"),
        ("СОСА", "whole_script"),
        ("АВВА", "whole_script"),
        ("ОТТО", "whole_script"),
        ("КАТЕ", "whole_script"),
        ("ВЕТН", "whole_script"),
        ("рорра", "whole_script"),
        ("ΑΒΕ", "whole_script"),  # Greek
        ("ΤΟΚΥΟ", "whole_script"),
        ("ΝΙΚΕ", "whole_script"),
        ("ΖΟΕ", "whole_script"),
        ("ΒΕΝ", "whole_script"),
        ("ΟΤΤΟ", "whole_script"),
        ("ΗΑΝΝΑΗ", "whole_script"),
    ],
    # The site's name beside a staff word, or alone.
    "site": [
        ("Sheepshead Team", "site"),
        ("Sheepshead Official", "site"),
        ("Team Sheepshead", "site"),
        ("Official Sheepshead", "site"),
        ("Sheepshead Staff", "site"),
        ("Sheepshead Support", "site"),
        ("SHEEPSHEAD OFFICIAL", "site"),
        ("Sheeps Head Team", "site"),
        ("Sh33pshead Support", "site"),
        ("Sheepsheàd Team", "site"),
        ("Sheepshead", "site"),
        ("Sheepshead Mitarbeiter", "site"),
        ("Schafkopf Team", "site"),
        ("Sheepshead-Verwaltung", "site"),
        ("Sheepshead দল", "site"),
        ("শিপসহেড টিম", "site"),
        ("Sheepshead 팀", "site"),
        ("Ѕheepshead Team", "site"),  # a Cyrillic Ѕ: posing is read through look-alikes
    ],
    "staff": [
        ("Staff", "staff"),
        ("Support", "staff"),
        ("Admin", "staff"),
        ("Moderator", "staff"),
        ("Support Team", "staff"),
        ("Official Staff", "staff"),
        ("Admin Bob", "staff"),
        ("Bob the Moderator", "staff"),
        ("Moderator_Max", "staff"),
        ("ADM1N", "staff"),
        ("A.d.m.i.n", "staff"),
        ("Mitarbeiter", "staff"),
        ("Verwaltung", "staff"),
        ("প্রশাসক", "staff"),
        ("মডারেটর রাজু", "staff"),
        ("অ্যাডমিন", "staff"),
        ("\u0410dmin", "staff"),  # a Cyrillic А
        ("\u039coderator", "staff"),  # a Greek Μ
        ("관리자", "staff"),
    ],
    # A computer player's seat name or level beside a computer word.
    "computer": [
        ("Ann Bot", "computer"),
        ("Bob (computer)", "computer"),
        ("Expert Eve", "computer"),
        ("The Expert", "computer"),
        ("Computer Player", "computer"),
        ("Bob the Bot", "computer"),
        ("Bot 7", "computer"),
        ("Eve CPU", "computer"),
        ("Cal Computer", "computer"),
        ("Dot.bot", "computer"),
        ("Expert Bot", "computer"),
        ("3XP3RT", "computer"),
        ("Der Experte", "computer"),
        ("Anfänger Ann", "computer"),
        ("Ann Roboter", "computer"),
        ("দক্ষ বট", "computer"),
        ("কম্পিউটার খেলোয়াড়", "computer"),
        ("ВОТ", "computer"),  # Cyrillic capitals that read "BOT"
        ("Standard Bob", "computer"),
    ],
}

#: Real names that must pass, as typed.
REAL_NAMES: list[str] = [
    # English, Irish, Scottish, with apostrophes, hyphens and initials
    *("Ann", "Sheepshead Sam", "Expert Eddie", "Mary-Kate", "O'Brien", "O’Neill", "D'Angelo"),
    *("Mary Ann Smith", "J.R. Ewing", "Jean-Luc Picard", "McDonald", "MacKenzie", "Ng Wei"),
    *("Anne-Marie", "Zoë", "Chloé", "Renée", "Noël", "Björn", "Bob", "Eve Smith", "Annabel"),
    *("Player One", "Player Decade", "Team Rocket", "Badminton Bob", "Bobby Bot Jr"),
    # German: umlauts and ß
    *("Jürgen Müller", "Günther Bäßler", "Straße", "Jörg", "Uwe Größ", "Käthe", "Märta"),
    *("Hans-Peter", "Sören Weiß", "Änne", "Özdemir", "Heß", "Großmann", "Jürgen-Ölf"),
    # Vietnamese: two marks on a letter
    *("Nguyễn Thị Ánh", "Trần Văn Đức", "Phạm Quỳnh", "Lê Thị Hồng", "Đặng Thuỳ"),
    *("Võ Nguyên Giáp", "Huỳnh Ngọc Ẩn", "Bùi Xuân Phái"),
    # Other Latin-script languages
    *("José", "Jose\u0301", "François", "Łukasz", "Żaneta", "Ştefan", "Şükrü", "İlkay"),
    *("Dvořák", "Tomáš", "Ærø", "Søren", "Åsa", "Ðorđe", "Mañana", "Íñigo", "Ñuñez"),
    # Cyrillic names with a letter that is not Latin-looking
    *("Дмитрий", "Анна", "Ольга", "Иван", "Саша", "Наталья", "Юлия", "Сергей", "Людмила"),
    *("Євген", "Ґанна"),
    # Greek
    *("Νίκος", "Σοφία", "Γιώργος", "Δημήτρης", "Ελένη", "Αθηνά", "Παναγιώτης", "Λάμπρος"),
    # Bengali: conjuncts, candrabindu, nukta, joiners where they shape a conjunct
    *("দীপা রায়", "অমিত দাস", "সত্যজিৎ রায়", "রবীন্দ্রনাথ", "চাঁদ", "কৃষ্ণ", "লক্ষ্মী"),
    *("শ্রেয়া", "ঋত্বিক", "আঁখি", "বাঁধন", "পূর্ণিমা", "স্বপ্না", "জ্যোতি", "ঐশী"),
    *("র\u200d্যাব", "ক্\u200cষিতি", "পদ্\u200dমা", "র্যাব", "মৃণাল সেন", "সৌমিত্র"),
    *("হাঁসুলী", "ড়ুঁ দাস"),
    # Hangul, and Korean with Latin letters
    *("김민준", "이서연", "박지훈", "최유나", "정하늘", "강다은", "한국인", "윤서준"),
    *("Kim 민준", "Lee 서연"),
    # Persian: a non-joiner between two Arabic letters that join (RFC 5892)
    "مهدی\u200cزاده",
    # Japanese and Chinese
    *("山田太郎", "さくら", "タロウ", "李小龍", "王小芳"),
    # Digits and underscores
    *("card_shark-99", "Ann2", "Bob_1990", "৭ তারা"),
]
