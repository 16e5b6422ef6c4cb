"""Issue 46: the word filter reads a word however it is spelt to slip past it, in English
and Filipino, and leaves ordinary words alone.

It let 28 of 54 common spellings through: spaced letters, repeated letters, Cyrillic and
full-width look-alikes, words joined together. Each spelling below is a whole message a
person could send; the filter must hide the word in it."""

from __future__ import annotations

import pytest

from games.social.chat import wordfilter

EVASIVE = {
    "spaced": [
        "f u c k",
        "s h i t",
        "g a g o",
        "p u t a",
        "b o b o",
        "t a n g a",
        "u l o l",
        "f-u-c-k",
        "f_u_c_k",
        "f . u . c . k",
        "b-i-t-c-h",
        "p u t a n g i n a",
    ],
    "repeated": [
        "fuuuuck",
        "shiiiiit",
        "fuckkkk",
        "gaaaaago",
        "puuuuta",
        "bobooooo",
        "ulooool",
        "tangaaaa",
        "biiitch",
        "asssshole",
    ],
    "Cyrillic and Greek": [
        "fu\u0441k",  # с
        "sh\u0456t",  # і
        "g\u0430go",  # а
        "\u0440uta",  # р
        "b\u043eb\u043e",  # о
        "\u0422\u0410NG\u0410",  # Т, А
        "ul\u03bfl",  # Greek ο
        "\u0430sshole",  # а
        "bit\u0441h",  # с
    ],
    "full-width and other forms": [
        "\uff46\uff55\uff43\uff4b",  # ｆｕｃｋ
        "\uff33\uff28\uff29\uff34",  # ＳＨＩＴ
        "\uff47\uff41\uff47\uff4f",  # ｇａｇｏ
        "\uff50\uff55\uff54\uff41",  # ｐｕｔａ
        "\U0001d41f\U0001d42e\U0001d41c\U0001d424",  # mathematical bold
        "\u24d5\u24e4\u24d2\u24da",  # circled letters
        "fu\u0301ck",  # an accent on the u
        "g\u0332a\u0332g\u0332o\u0332",  # underlined with combining marks
    ],
    "joined": [
        "fuckyou",
        "fuckoff",
        "gagoka",
        "putanginamo",
        "tanginamo",
        "ulolka",
        "bobokayo",
        "angtangamo",
        "gagotalaga",
        "youfuckingbitch",
        "hayopka",
        "bullshit",
    ],
    "leetspeak": [
        "sh1t",
        "fvck",
        "g@g0",
        "b0b0",
        "ul0l",
        "pu7a",
        "$h1t",
        "7anga",
        "tang1na",
        "a$$hole",
    ],
    "mixed": [
        "f u u u c k",
        "\uff46u\u0441k",  # full-width f, Cyrillic с
        "G.A.G.O",
        "sh!t",
        "FuCkYoU",
    ],
}
CASES = [(kind, text) for kind, texts in EVASIVE.items() for text in texts]

INNOCENT = [
    # English
    "Pass the cards, please: that was a classy move",
    "Scunthorpe beat Arsenal and Sussex on Sunday",
    "I need to assess this hand before the next round",
    "The pot is big tonight, good luck everyone",
    "My therapist says cards are good for the mind",
    "Hello! She sells sea shells by the sea shore",
    "We had cocktails and shiitake at the peacock cafe",
    "The analysis of the documentation is cumulative",
    "An assassin in the cockpit: what a title for a book",
    "Oh my god, what a hand. OMG, lmao",
    "Raccoons ate the grapes on the canal",
    "I will take my chances with a spotless shuffle",
    "Dickens wrote about a shell of a man",
    "a b c, e.g. www.example.com",
    "Press 1 2 3 to go on",
    "I hold A 5 5 and 7 1 7 1 is no card",
    # Filipino
    "Salamat sa laro, ang galing mo talaga",
    "Pakibigay ang baraha, paki bilisan po",
    "Kain tayo ng puto at leche flan mamaya",
    "Gagawin ko mamaya, gagaya lang ako sa iyo",
    "May gagamba sa mesa, tangan ko pa ang baraha",
    "Boboto ako bukas bago tayo maglaro",
    "Titingnan ko muna ang putahe bago kumain",
    "Ang reputasyon niya ay maganda",
    "Uulan mamaya kaya dito na lang tayo",
    "Titira ako sa bahay ni lola, masarap ang lechon",
    "Kumusta ka na? Tara laro tayo ulit",
    "Pakyaw na lang natin ang tinda",
]


@pytest.mark.parametrize(("kind", "text"), CASES, ids=[f"{k}: {t}" for k, t in CASES])
def test_an_evasive_spelling_is_hidden(kind, text):
    assert "****" in wordfilter.clean(text)


def test_at_least_54_evasive_spellings_are_tried_of_each_kind():
    assert len(CASES) >= 54
    assert all(len(texts) >= 5 for texts in EVASIVE.values())


def test_the_word_is_hidden_with_what_stood_around_it_kept():
    assert wordfilter.clean("oy f u c k you!") == "oy **** you!"
    assert wordfilter.clean("ang g\u0430go mo") == "ang **** mo"
    assert wordfilter.clean("fuuuuck, ano ba") == "****, ano ba"
    assert wordfilter.clean("nice, \uff46\uff55\uff43\uff4b!") == "nice, ****!"
    assert wordfilter.clean("gagoka talaga") == "**** talaga"
    # The marks drawn on its letters go with the word, the last one's too.
    assert wordfilter.clean("g\u0332a\u0332g\u0332o\u0332 ka") == "**** ka"
    # Letters spaced out with a strong word among them are hidden whole, however long.
    assert wordfilter.clean("ay g a g o x y z") == "ay ****"
    assert wordfilter.clean(" ".join("putanginamofuckyoubitchxyz" * 3)) == "****"


@pytest.mark.parametrize("text", INNOCENT)
def test_ordinary_words_in_either_language_pass_untouched(text):
    assert wordfilter.clean(text) == text
