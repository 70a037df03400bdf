"""The cue lexicon: the names of the cues a decomposition reports, the words and patterns of the
negation cues, the filler stripped from a negated concept and the question openers.

Each negation cue name says what kind of negation it is. :data:`EXCLUDING_CUES` name the ones that
exclude a topic (a negated copula, adjective or noun, ``other than``, ``without``, ``no X``,
``-term`` ...): passages about the negated thing are usually unwanted. :data:`PREDICATE_CUES` name
a negated main verb (``never won an Oscar``, ``did not play``, ``don't flow into``): it states a
property of the answer, and the passages that satisfy it often mention the negated thing. A
composer that penalises negated terms (``auto``) reads these sets."""

from __future__ import annotations

import re
from dataclasses import dataclass

from logir.query.natural.view import View, has_content

NEGATION_PARENTHETICAL = "negation:parenthetical"
NEGATION_NEITHER_NOR = "negation:neither-nor"
NEGATION_IN_ADDITION_TO = "negation:in-addition-to"
NEGATION_FRONTED_EXCEPTION = "negation:fronted-exception"
NEGATION_EXCEPTION = "negation:exception"
NEGATION_REFRAIN = "negation:refrain"
NEGATION_NOTHING_ABOUT = "negation:nothing-about"
NEGATION_NO_MENTION = "negation:no-mention"
NEGATION_WITHOUT = "negation:without"
NEGATION_UNRELATED = "negation:unrelated"
NEGATION_DONT_MENTION = "negation:dont-mention"
NEGATION_BUT_NOT = "negation:but-not"
NEGATION_COMMA_NOT = "negation:comma-not"
NEGATION_COPULA = "negation:copula"
NEGATION_PREDICATE = "negation:predicate"
NEGATION_NOT = "negation:not"
NEGATION_NO = "negation:no"
NEGATION_MINUS = "negation:minus"
NEGATION_DISLIKE = "negation:dislike"
NEGATION_FREE = "negation:x-free"
NEGATION_NON_WORD = "negation:non-word"
NEGATION_LIST_ITEM = "negation:list-item"
TEMPLATE_THAT_ARE_ALSO = "template:that-are-also"
TEMPLATE_THAT_ARE_ALSO_BOTH = "template:that-are-also-both"
DISJUNCTION_OR = "disjunction:or"
DISJUNCTION_EITHER_OR = "disjunction:either-or"
CONJUNCTION_BOTH_AND = "conjunction:both-and"
CONJUNCTION_NOT_ONLY = "conjunction:not-only-but-also"
CONJUNCTION_PROPERTIES = "conjunction:properties"
FRAME_DROPPED = "frame:dropped"
CONJUNCTION_LIST = "conjunction:list"
LIST_HEADER_DROPPED = "list:header-dropped"
CLAUSES_UNION = "clauses:union"

EXCLUDING: tuple[str, ...] = (
    NEGATION_PARENTHETICAL,
    NEGATION_NEITHER_NOR,
    NEGATION_IN_ADDITION_TO,
    NEGATION_FRONTED_EXCEPTION,
    NEGATION_EXCEPTION,
    NEGATION_REFRAIN,
    NEGATION_NOTHING_ABOUT,
    NEGATION_NO_MENTION,
    NEGATION_WITHOUT,
    NEGATION_UNRELATED,
    NEGATION_DONT_MENTION,
    NEGATION_BUT_NOT,
    NEGATION_COMMA_NOT,
    NEGATION_COPULA,
    NEGATION_NOT,
    NEGATION_NO,
    NEGATION_MINUS,
    NEGATION_DISLIKE,
    NEGATION_FREE,
)

CUE_NAMES: tuple[str, ...] = (
    *EXCLUDING,
    NEGATION_PREDICATE,
    NEGATION_NON_WORD,
    NEGATION_LIST_ITEM,
    TEMPLATE_THAT_ARE_ALSO,
    TEMPLATE_THAT_ARE_ALSO_BOTH,
    DISJUNCTION_OR,
    DISJUNCTION_EITHER_OR,
    CONJUNCTION_BOTH_AND,
    CONJUNCTION_NOT_ONLY,
    CONJUNCTION_PROPERTIES,
    CONJUNCTION_LIST,
    LIST_HEADER_DROPPED,
    FRAME_DROPPED,
    CLAUSES_UNION,
)
"""Every name :attr:`Decomposition.cues` may hold."""

EXCLUDING_CUES: frozenset[str] = frozenset(EXCLUDING)
"""Negation cues that exclude a topic: passages about the negated concept are unwanted."""

PREDICATE_CUES: frozenset[str] = frozenset({NEGATION_PREDICATE, NEGATION_LIST_ITEM})
"""Negation cues that state a property of the answer (a negated main verb, a bare ``not``
condition of a list): passages that satisfy them often mention the negated concept."""

AUX = r"is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|shall|may|might|must"
NT = (
    r"(?:isn|aren|wasn|weren|don|doesn|didn|hasn|haven|hadn|couldn|wouldn|shouldn|mustn)"
    r"['\u2019]?t|won['\u2019]t|can['\u2019]t|cannot"  # "didnt", as typed
    r"|\barn['\u2019]?t\b"  # "arnt", as typed (not "Arntzen")
)
#: "I already know (all) about", "we've already read": what follows is known, so left out
_ALREADY = (
    # (a patron: "she already has the cystitis material")
    r"(?:(?:i|we|she|he|they)(?:\s*['\u2019]?ve|\s+have|\s+has|\s*['\u2019]s(?=\s+had\b))?\s+|(?<=[.?!]\s)|(?<=[.?!]\s\s)|^)"
    r"(?:already\s+(?:know|knows|knew"
    r"|read|covered|studied|seen|looked\s+at|has|have|got|own|owns"
    # (what was done is named: not "we already did that one")
    r"|(?:did|done)(?!\s+(?:that|it|those|them|this|these)\b)"
    # "I have already written up Muhammad Ali's relatives"
    r"|(?:written|wrote)(?:\s+up)?)\s+(?:(?:all|enough|plenty)\s+)?"
    r"(?:about\s+|on\s+)?"
    # "I've read tons about X": no "already", but a quantity says it is done
    # ("I've read the stuff on praise and growth mindset, so something other than that")
    r"|(?:read|seen|studied|heard|done)\s+(?:tons|loads|lots|plenty|enough|a\s+lot|so\s+much"
    r"|(?:all\s+)?the\s+(?:stuff|material|books|articles|bits))\s+"
    r"(?:about|on)\s+"
    # "we've had quite enough of Hercule Poirot": what one is tired of is left out
    r"|had\s+(?:quite\s+|more\s+than\s+)?enough\s+(?:of|about)\s+"
    # "we have enough on poodles", "i've got plenty on the Tudors"
    r"|(?:got\s+)?(?:enough|plenty)\s+(?:on|about)\s+)"
)

#: "does not", "don't" and the like, as typed ("doesnt interest me", "dont count")
_DOES_NOT = r"(?:does\s+not|doesn['\u2019]?t|do\s+not|don['\u2019]?t)"

#: a relative before a negation, "that's" and "thats" as typed ("stock car racing thats not nascar")
_RELATIVE = r"(?:\b(?:that|which|who)(?:['\u2019]?s)?\s+)?"

#: a polite word or "just" before a request ("please leave it", "pls no X", "just skip it")
_PLEASE = r"(?:please\s+|pls\s+|plz\s+|just\s+)?"
#: a request that leaves out an item named before it: "leave it", "skip them", "drop that out"
_LEAVE_IT = r"(?:leave|skip|drop)\s+(?:it|them|that|those)(?:\s+(?:out|aside))?"

#: a word of degree between an item's copula and the verdict on it ("lilies are obviously out")
VERDICT_DEGREE = r"(?:obviously|definitely|clearly|totally|also|completely|absolutely|def|defo)"

#: what follows an item to leave it out: "the doc ock body swap thing is off the table", "X is
#: not wanted", "the Colonel Light bits can be skipped over", "X are old news to me"
POSTPOSED = (
    # (first: the longer cue, so that a shorter one does not end it early: "the four seasons is
    # covered already so none of that")
    # "the tunnelling explanation is too advanced so leave it", "the coronations are a separate
    # episode, leave them": a clause on the item, then a pronoun for it (at most five words
    # between; each word ends at a space, so nothing backtracks)
    r"(?:is|are|r|was|were|has\s+been|have\s+been)\s+(?:[\w'\u2019-]+\s+){0,4}[\w'\u2019-]+\s*"
    r"(?:,\s*|\s+)(?:so\s+|and\s+)?"
    # ("Pubs are different, so please exclude them.")
    r"(?:please\s+|just\s+)?(?:(?:leave|skip|drop|exclude|omit|ignore)\s+(?:it|them|['\u2019]?em|that|those|him|her)"
    # ("drag queens are a different thing so leave them aside")
    r"(?:\s+(?:out|off|aside)(?:\s+of\s+it)?)?"
    # "The Futurists are on another floor, so not them.", "the scandal has been done to death,
    # so not that", "the troubles up north are a different thing, dont want those"
    rf"|not\s+(?:it|them|those|that)|none\s+of\s+(?:it|them|those|that)"
    # "burgundy's been done to death, so anything else"
    r"|(?<=so\s)(?:anything|something)\s+else"
    # "Dayton has been covered already, so nothing on it"
    rf"|nothing\s+(?:on|about)\s+(?:it|them|those|that)"
    # "amino acids / fatty acids r bio so nah": a verdict word closes the clause
    r"|(?<=\bso\s)(?:nah|nope|no|pass)(?![\w'\u2019-]|\s+[\w'\u2019-])"
    rf"|(?:(?:i|we)\s+)?{_DOES_NOT}\s+want\s+(?:it|them|those|that))"
    # "TAP is out of the question for this client"
    r"|(?:is|are)\s+out\s+of\s+the\s+question|(?:(?:is|are)\s+)?off\s+the\s+table|(?:is|are)\s+not\s+wanted|not\s+wanted"
    # "sports coaches getting the boot - not interested"
    r"|not\s+interested"
    # ("..., please leave it": only after the comma VERDICT_COMMA allows)
    rf"|(?<=,\s){_PLEASE}{_LEAVE_IT}"
    # "east asian calligraphy isn't wanted", "anyone from breaking bad can sit this one out"
    r"|(?:isn['\u2019]?t|aren['\u2019]?t)\s+wanted|(?:can|could|may)\s+sit\s+(?:this|it)\s+(?:one\s+)?out"
    # "houston's a no", "the cruise ports are a no-go", "reality shows are a hard pass"
    r"|(?:(?:is|are)\s+)?a\s+(?:no(?:[\s-]go)?|(?:hard\s+)?pass)(?:\s+(?:from|for)\s+(?:me|us))?"
    # "jumpscares give me the ick", "whey?? absolutely not", "florida is not it"
    # (not "he gives me the creeps": a comment on an item named before)
    r"|(?<!\bhe\s)(?<!\bshe\s)(?<!\bit\s)(?<!\bthey\s)gives?\s+me\s+the\s+(?:ick|creeps)"
    r"|(?:\?+\s*|!+\s*)?(?:absolutely|hell|heck|definitely|def)\s+(?:not|no)"
    r"|(?:is|are)\s+not\s+it(?=\s*(?:[.!]|$))"
    # "nfl ones dont help me"
    rf"|{_DOES_NOT}\s+help\s+(?:me|us)"
    # "the rules stuff can wait", "the hell side can be left for another meeting"
    r"|(?:can|could)\s+wait"
    # "euclid's postulates can go", "cocteau n balzac can go" (at a clause's end only: "places
    # kids can go" names no item set off before it)
    r"|(?:can|could)\s+go"
    # "composers we've already booked", "the louvre we already visited"
    r"|(?:i|we)(?:\s*['\u2019]ve|\s+have)?\s+already\s+(?:booked|got|visited|watched|tried|heard|used"
    r"|been\s+to)"
    r"|(?:can|could|may|might)\s+be\s+(?:left|saved|kept)\s+for\s+(?:another|a\s+later|later|the\s+next)"
    r"(?:\s+[\w'\u2019-]+)?"
    # "airports are banned from this round"
    # (not "where marijuana is banned", "drugs banned from the olympics": a fact, not a wish)
    r"|(?:is|are)\s+banned\s+from\s+(?:this|the|my|our)\s+(?:round|list|quiz|search|set|game"
    r"|episode|show|segment)"
    r"|(?:can|could|may|might|should|must)\s+be\s+(?:skipped(?:\s+over)?|disregarded|ignored|omitted|dropped"
    # "Beethoven should be set aside entirely", "X may be set aside"
    r"|excluded|(?:set|left)\s+aside(?:\s+(?:entirely|altogether|completely))?"
    # "the art history side can be left out of tonight's lecture"
    r"|left\s+(?:off|out)(?:\s+of\s+(?:[\w'\u2019-]+\s+){0,3}[\w'\u2019-]+)?)"
    # "amorphous/glassy solids: skip", "Sporulation and Tat secretion: no." (a label's answer)
    r"|(?<=\w:\s)(?:skip|no|nope|pass"
    # "officers who sat in office while serving: exclude them"
    r"|(?:exclude|skip|drop|omit|ignore)\s+(?:them|those|these|it)|leave\s+(?:them|those|it)\s+out)"
    # "mob guys off limits"
    # ("whales are off limits for this, different essay")
    r"|(?:(?:is|are)\s+)?off[\s-]limits(?:\s+(?:for|to)\s+(?:me|us|her|him|them|this(?:\s+one)?|now))?"
    r"|(?:is|are)\s+old\s+news(?:\s+to\s+(?:me|us))?"
    # "computer character encodings like ascii are off topic"
    r"|(?:is|are)\s+off[\s-]topic(?:\s+(?:here|for\s+(?:me|us|this)))?"
    # "the 2008 amendments act is out of scope", "Impeachment out of scope."
    # ("... out of scope for her": the one the search is for)
    # ("... are out of scope for my essay")
    r"|(?:(?:is|are)\s+)?out\s+of\s+scope(?:\s+(?:for|to)\s+(?:me|us|her|him|them|this(?:\s+one)?|now"
    r"|(?:my|our|the|this|her|his)\s+(?:essay|paper|project|assignment|report|thesis|talk|article"
    r"|piece|class|lesson|lecture|review|search|request|question|list|episode|newsletter)))?"
    # "its origins in the CCIR are beyond the scope of this request"
    r"|(?:is|are|lie|lies|fall|falls)\s+beyond\s+(?:the|its|my|our|this)\s+(?:scope|remit)(?:\s+of\s+(?:this|my|our|the)\s+"
    r"(?:request|inquiry|enquiry|search|project|review|question|piece|episode))?"
    # "the Spanish wars against Brunei are a story for another time"
    r"|(?:is|are)\s+(?:a\s+)?(?:story|topic|matter|subject|question)\s+for\s+another\s+(?:time|day|episode"
    r"|occasion)"
    # "goalkeepers are out", "lilies are obviously out", "burgundy's out"
    rf"|(?:(?:is|are)\s+|(?<=['\u2019]s\s))(?:{VERDICT_DEGREE}\s+)?out"
    # "burgundy's been done to death", "the Tudors have been done to death", "X is overdone"
    r"|(?:(?:has|have)\s+|(?<=['\u2019]s\s))been\s+(?:done\s+to\s+death|overdone)"
    r"|(?:is|are)\s+(?:done\s+to\s+death|overdone)"
    # "portland maine is the wrong one"
    r"|(?:is|are)\s+the\s+wrong\s+(?:one|ones|kind|type|guy|place|thing)"
    # "frankenstein is banned lol" (a verdict, at its clause's end)
    # (not "ones that are banned", "where alcohol is banned": a fact of the answer)
    r"|(?<!\bthat\s)(?<!\bwhich\s)(?<!\bwho\s)(?<!\bthey\s)"
    r"(?:is|are)\s+banned(?=\s*(?:[.;!)]|$|\s(?:lol|lmao|haha|tho|though|tbh)\b))"
    # "the modern debate about his letters is not relevant for our label", "X are irrelevant
    # here", "passages concerning its syntax are to be disregarded"
    # "dissolution therapy w/ bile acids not relevant for me"
    r"|not\s+relevant\s+(?:to|for)\s+(?:me|us)"
    r"|(?:is|are)\s+(?:not\s+relevant|irrelevant)(?:\s+(?:here|now|(?:to|for)\s+(?:me|us)"
    r"|(?:to|for)\s+(?:this|my|our|the)(?:\s+[\w'\u2019-]+)?))?"
    r"|(?:is|are)\s+to\s+be\s+(?:skipped|disregarded|ignored|omitted|dropped|excluded"
    r"|left\s+(?:off|out)|set\s+aside)"
    # "the story of who invented them is of no interest to me", "side-channel attacks are not of
    # interest to me", "X is not what I search", "assassination can stay out of it",
    # "individualist anarchism I am not needing"
    r"|(?:is|are)\s+(?:(?:of\s+)?no\s+(?:interest|use|good)|not\s+of\s+(?:any\s+|much\s+)?interest)"
    r"(?:\s+to\s+(?:me|us|her|him|them))?(?:\s+(?:at\s+all|whatsoever))?"
    # "abalone is not my line", "opera isn't really my thing"
    r"|(?:is|are|isn['\u2019]?t|aren['\u2019]?t)\s+(?:not\s+)?(?:really\s+)?(?:my|our)\s+"
    r"(?:line|thing|area|field|department|concern|focus|bag|cup\s+of\s+tea)"
    # "gene/genome characterisation papers = no"
    r"|=\s*(?:no|nope|none|out)"
    # "the chemotherapy trials are a separate story I will not cover"
    # "his blood pressure pills are a seperate question"
    r"|(?:is|are)\s+(?:a\s+)?(?:separate|seperate|different|another)\s+(?:story|matter|topic|question"
    r"|issue|subject|thing|search)(?:\s+(?:altogether|entirely))?(?:\s+(?:that\s+)?(?:i|we)\s+(?:will\s+not"
    r"|won['\u2019]?t|do\s+not|don['\u2019]?t|am\s+not\s+going\s+to|shall\s+not)\s+(?:cover|need|want"
    r"|discuss|get\s+into|go\s+into))?"
    r"|(?:(?:is|are)\s+not|isn['\u2019]?t|aren['\u2019]?t)\s+(?:what|who|the\s+ones?)\s+(?:im|i|we)(?:\s*['\u2019]m|\s+am|\s*['\u2019]re|\s+are)?\s+"
    r"(?:search(?:ing)?(?:\s+for)?|look(?:ing)?\s+for|want|need|after|mean|meant)"
    r"|(?:can|could|may|should|must)\s+stay\s+out(?:\s+of\s+(?:it|this|that))?"
    # "the novels can stay on the shelf", "Gaudi is not to be included"
    r"|(?:can|could|may|should)\s+stay\s+on\s+the\s+shelf"
    r"|(?:is|are)\s+not\s+to\s+be\s+(?:included|covered|mentioned|considered|discussed)"
    # "his military chaplaincy is beside the point for my purposes"
    r"|(?:is|are)\s+beside\s+the\s+point(?:\s+(?:here|now|(?:for|to)\s+(?:me|us|my\s+purposes"
    r"|our\s+purposes|this(?:\s+one)?)))?"
    r"|(?:i|we)\s+(?:am|are|['\u2019]m|['\u2019]re)\s+not\s+needing"
    # "Alfonso the Battler I know well enough already", "the basics we already know", "augustus
    # we already covered", "the doping stuff we can skip"
    # ("the mallow family I already have, so leave it out")
    r"|(?:i|we)(?:\s+already\s+(?:know|covered|did|read|saw|have|own|grow|got)"
    # ("The daguerreotype and the calotype I know well. What other ...")
    r"|\s+know\s+(?:(?:well\s+enough\s+|enough\s+|all\s+about\s+)?already|(?:very\s+)?well)|(?:\s*['\u2019]ve|\s+have)\s+already\s+(?:read|seen|covered|done)"
    # "Rhode Island / Roger Williams I have covered already"
    r"|(?:\s*['\u2019]ve|\s+have)\s+(?:read|seen|covered|done)\s+already"
    # "alaric and his goths ive read plenty about already"
    r"|(?:\s*['\u2019]?ve|\s+have)\s+(?:read|seen|heard)\s+(?:plenty|enough|lots|a\s+lot)"
    r"(?:\s+(?:about|on))?(?:\s+already)?)"
    # "heart failure i already know, so leave it"
    # ("Oedipus I have covered already so no need", "shishapangma i already know so not that
    # one")
    # ("the Cherokee one i know already so without them")
    rf"(?:\s*,?\s*(?:so\s+)?(?:just\s+)?(?:{_LEAVE_IT}|no\s+need"
    r"|(?:not|without)\s+(?:that|this|those|these|them|it)(?:\s+ones?)?))?"
    r"|(?:i|we)\s+(?:can|could)\s+(?:skip|drop|ignore)"
    # "NASA results keep coming up and i dont want them"
    r"|keeps?\s+(?:coming|showing|popping|turning)\s+up\s*,?\s+(?:and|but)\s+(?:i|we)\s+"
    r"(?:do\s+not|don['\u2019]?t)\s+want\s+(?:them|it|those|that)"
    # "paraquat cases are not needed", "the clotting stuff isn't needed", "the ski and tourist
    # things i dont want", "his quarrel with Sartre doesn't interest me in the least", "huxley
    # coining the word doesnt matter to me"
    r"|(?:(?:(?:is|are)\s+)?not|isn['\u2019]?t|aren['\u2019]?t)\s+(?:needed|required|necessary)"
    # "coeliac immunology and diagnosis, gluten free diet part no need"
    r"|no\s+need(?:\s+for\s+(?:it|them|that|those))?"
    r"|(?:i|we)\s+(?:do\s+not|don['\u2019]?t)\s+(?:want|need|care\s+(?:about|for)|like)"
    rf"|{_DOES_NOT}\s+interest\s+(?:me|us|her|him|them)(?:\s+in\s+the\s+least|\s+at\s+all)?"
    rf"|{_DOES_NOT}\s+matter(?:\s+(?:to|for)\s+(?:me|us|this(?:\s+one)?|now))?(?:\s+at\s+all|\s+much)?"
    # "cricket world cup hosts, england + india dont count"
    rf"|{_DOES_NOT}\s+count"
    # "Saratoga lie outside the present inquiry", "its place in the periodic table is already
    # covered", "temples and churches off the list", "(if) sport and athletics were left out
    # entirely", "the workings of its bellows hold no interest for me"
    r"|(?:lie|lies|fall|falls|is|are|being)\s+outside\s+(?:the\s+|this\s+|my\s+|our\s+|its\s+|their\s+|her\s+|his\s+)?"
    r"(?:present\s+)?"
    r"(?:inquiry|enquiry|scope|question|brief|remit|purview|concern|interest|focus|project|purpose|topic"
    r"|assignment|essay)(?:\s+of\s+(?:the|this|my|our)\s+(?:present\s+)?(?:inquiry|enquiry"
    r"|question|search|request|project|review|assessment|report|summary|piece))?"
    # "Drag costumes are outside what I need."
    r"|(?:is|are|falls?|lies?)\s+outside\s+what\s+(?:im|i|we)(?:\s*['\u2019]m|\s+am|\s*['\u2019]re|\s+are)?\s+"
    r"(?:need|want|search(?:ing)?\s+for|look(?:ing)?\s+for|after|asking\s+for|ask\s+for)"
    r"|(?:is|are|was|were)\s+(?:already\s+(?:covered|done|dealt\s+with)|covered\s+already)"
    # "paris, rome and barcelona are all done", "Duolingo need not apply", "Sintra = been there
    # done that"
    r"|(?:is|are)\s+all\s+done|need\s+not\s+apply"
    # "Horror is not OK.", "The military part is not interesting for me.", "Tesla supercharger
    # don't want" (a learner's order)
    r"|(?:is|are)\s+not\s+(?:ok|okay|allowed|welcome|acceptable|an\s+option"
    r"|interesting\s+(?:for|to)\s+(?:me|us))"
    r"|(?:i\s+)?(?:do\s+not|don['\u2019]?t)\s+(?:want|need)(?=\s*[.!]?\s*$)"
    r"|(?:=\s*|(?:is|was)\s+)?been\s+there,?\s+done\s+that"
    r"|(?:(?:is|are)\s+)?off\s+the\s+list"
    r"|(?:be|were)\s+(?:left\s+out|omitted|excluded|dropped)(?:\s+(?:entirely|altogether|completely))?"
    r"|(?:hold|holds|has|have)\s+no\s+interest\s+for\s+(?:me|us)"
    # "eamon ryan's the one i'm sick of hearing about"
    r"|(?:is\s+)?the\s+one\s+(?:i|we)\s*(?:['\u2019]m|am|['\u2019]re|are)\s+(?:so\s+|really\s+)?"
    r"(?:sick|tired)\s+of(?:\s+(?:hearing|reading)(?:\s+about)?)?"
    # "sepsis need not be included"
    r"|(?:need\s+not|needn['\u2019]?t)\s+be\s+(?:included|covered|mentioned|considered|discussed)"
    # "pancreatic cancer should not be included"
    r"|(?:(?:should|must)\s+not|shouldn['\u2019]?t|mustn['\u2019]?t)\s+be\s+(?:included|covered"
    r"|mentioned|considered|discussed)"
)

#: when a verdict on an item holds, said after it: "true crime is off the table after last time",
#: "horror is out for now" (part of the verdict, not of the query)
FOR_NOW = (
    r"after\s+last\s+time|this\s+time(?:\s+round)?|for\s+now|for\s+this\s+one"
    # "TAP is out of the question for this client"
    r"|for\s+(?:this|that|my|our)\s+(?:client|clients|customer|patron|project|trip|essay|class"
    r"|report|piece|talk|episode|assignment)"
)

#: a dash that sets a cue off: " - ", " -- ", an en or em dash
DASH = r"\s(?:--?|[\u2013\u2014])"
#: a dash set off by spaces on both sides, compiled ("... oil — it scorched my roses")
SPACED_DASH = re.compile(rf"{DASH}\s")

#: where a verdict after its item ends: the clause's end, a chat word, a reason, or when it holds
_VERDICT_END = (
    r"\s*(?:[.;?!(),\]]|$|\s(?:tho|though|cos|coz|cuz|because|since|lol|lmao|haha|tbh|imo|ngl)\b"
    # a comment run on with its own subject ("stardew is a no for me ive played it to death")
    r"|\s(?:i\s*['\u2019]?ve|ive|i\s*['\u2019]?m|im|i\s+(?:have|am|already|just|hate|can['\u2019]?t))\b"
    r"|\s+so\s+(?:skip|drop|leave)\s+(?:those|them|it|that)\b"
    # a reason told as what happened ("logitech is off the table after my last one died")
    r"|\safter\s+(?:my|our|i|we|mine|ours)\b"
    rf"|\s(?:{FOR_NOW})\b)"
)

#: a comma between an item and a short verdict on it that ends the clause: "the ottoman time
#: with the corsairs, no need", "the sequels, not wanted"
VERDICT_COMMA = (
    # ("the story of pope leo stopping attila, please leave it")
    # ("sports coaches getting the boot - not interested": after a spaced dash too)
    rf"(?:,|{DASH})\s*(?=(?:no\s+need|not\s+(?:needed|wanted|required|necessary"
    r"|interested)"
    rf"|{_PLEASE}{_LEAVE_IT})\s*(?:[.;?!)]|$"
    r"|\s(?:tho|though|thx|thanks|lol|pls|please|tbh|imo|ngl)\b))"
)

#: words before "apart" that make it a distance or a break, not a leaving out ("worlds apart")
_APART_NOT_AFTER = (
    "set far fall fell falls falling torn tear tore came come comes coming pulled pull broke"
    " break breaks ripped miles years days weeks months feet inches yards metres meters km"
    " hours minutes steps poles worlds grew grow drift drifted moved spaced spread kept stand"
    " stood tell told living live lived lives wide grown growing taken take took"
)
_APART = "".join(rf"(?<!\b{w}\s)" for w in _APART_NOT_AFTER.split()) + r"apart"


def _not_after(words: str | list[str]) -> str:
    """Lookbehinds that fail right after any of ``words`` (a list, or space-separated): a verb's
    subject, auxiliary or "to", which make the next word a verb of a clause, not a cue."""
    return "".join(rf"(?<!\b{w})" for w in (words.split() if isinstance(words, str) else words))


def _right_after(words: str) -> str:
    """A group of lookbehinds, one of which holds right after one of the space-separated
    ``words`` and a space (or a comma and a space)."""
    return "(?:" + "|".join(rf"(?<=\b{w}\s)|(?<=\b{w},\s)" for w in words.split()) + ")"


#: the people a query may be for: "my son doesn't like nuts", "for my son who doesn't like nuts"
_FOR_PEOPLE = (
    "son sons daughter daughters kid kids child children wife husband partner friend friends"
    " mum mom dad mother father sister brother boss client clients guest guests family"
    " girlfriend boyfriend grandma grandpa nan granny gran teacher student students class"
    " patient patients baby toddler niece nephew aunt uncle cousin flatmate roommate"
)
#: before "who" in a dislike ("a cake for my son who doesn't like nuts"); "famous people who
#: didn't enjoy their lessons" states what the answers did instead
_FOR_WHOM = _right_after(
    _FOR_PEOPLE
    # "jobs for people who don't like math": people the query is for, after "for" only
    + " for\\speople for\\ssomeone for\\ssomebody for\\sanyone for\\sthose for\\sfolks"
    " for\\smen for\\swomen for\\sadults for\\sa\\sperson"
)
#: one of them named as the subject of a dislike ("cake recipes, my son doesn't like nuts")
_MY_PEOPLE = r"(?:my|our)\s+(?:" + "|".join(_FOR_PEOPLE.split()) + ")"


#: before "save for": "how to save for", "we save for" are no exceptions
_SAVE_FOR_NOT_AFTER = _not_after(
    "to i we you they can will must may should would could might shall do did and or not how help"
)
#: before a run-on "skip"/"forget": "how to skip anything", "people forget everything" are no
#: instructions
_RUN_ON_NOT_AFTER = _not_after(
    "to i we you they he she it can could will would should must may might do does did not how"
    " why when never always often people and or"
)

#: the word after an item that says it is left out ("opioids aside", "Bach excluded", "Roger
#: Williams apart", "cancer papers unwanted", "give the cartoons a miss")
AFTER_ITEM = (
    r"(?:(?:set|put|left|kept|laid)\s+)?aside|excluded(?:\s+from\s+(?:consideration|this(?:\s+search)?|the\s+search|discussion))?"
    r"|excepted|not\s+included|left\s+out(?:\s+of\s+(?:account|consideration))?|omitted|removed"
    # "with breast tumours taken out of the picture", "einstein excl."
    r"|taken\s+out(?:\s+of\s+the\s+(?:picture|equation|mix))?|excl\b(?=\.?\s*$)"
    rf"|unwanted|{_APART}|a\s+miss"
    # "with the Chicago Seven trial kept out of it" (not "countries that kept out of the war")
    r"|kept\s+out(?:\s+of\s+(?:it|this|that|them))?(?:\s+as\s+(?:far|much)\s+as\s+possible)?"
    r"|(?:i|we|you)\s+can\s+(?:do|live)\s+without"
)

#: verbs in "-s" that "out" follows as a particle ("it works out", "she finds out")
_OUT_VERBS_TEXT = (
    "works turns comes goes finds checks points stands sticks sells runs gets makes takes figures"
    " rules plays hangs wears cuts spells sorts carries reaches lays opts phases burns dies drops"
    " helps looks watches pulls pushes breaks gives hands passes misses fills tries maps sets puts"
    " leaves keeps lets shuts locks calls sends brings starts stays"
)
_OUT_VERBS = _OUT_VERBS_TEXT.split()
#: a bare "out" after the item it leaves out: "pharaohs / ancient stuff out.", "sieges & ruins
#: out", after a plural noun or "stuff" (not a verb's particle: "it works out", "sold out")
_OUT_LAST = (
    "(?:(?<=[^\\W\\d_][^\\W\\d_s]s\\s)"
    + "".join(rf"(?<!\b{v}\s)" for v in _OUT_VERBS)
    + r"|(?<=\bstuff\s)|(?<=\bcrap\s))out"
)

#: words ending in "s" after which "no" does not exclude ("this has no effect", "yes no")
_NOT_PLURALS_TEXT = (
    "is was has does this his yes us its as thus less unless always perhaps whereas hers ours"
    " yours theirs says means needs gets makes takes gives shows leaves puts"
)
_NOT_PLURALS = _NOT_PLURALS_TEXT.split()


#: right after a word that ends in "s" and is none of those ("players", not "is", "has")
_AFTER_PLURAL = r"(?<=[^\W\d_]s)" + _not_after(_NOT_PLURALS)
#: verbs in "-s" that "outside" follows as a place, not as an exclusion ("it lies outside")
_PLACED_VERBS = (
    "lies sits stands falls occurs exists lives works happens appears remains stays operates"
    " goes comes grows"
)
_NOT_PLACED = _not_after(_PLACED_VERBS.split())

#: words after "no" that make it something other than an exclusion ("no doubt", "no longer",
#: "no one", "no idea")
NO_FOLLOW_EXCEPT = (
    r"doubt|longer|more|less|matter|one|wonder|sooner|way|later|earlier|fewer|other|such|mean"
    r"|question|end|idea|sense"
    # "rules with no limit on terms", "no cap on spending": unlimited, a property
    r"|limits?|caps?|ceiling|restrictions?"
    # "doses no higher than 2 kGy", "no older than 12", "no better than placebo": a bound
    r"|[a-z]+er\s+than"
)

#: the one who passes a request on ("she says ...", "the editor says skip ...", "my boss said to
#: leave out")
_REPORTER = (
    r"(?:she|he|they"
    r"|(?:the|my|our)\s+(?:editor|boss|client|teacher|professor|supervisor|manager|producer))"
)

#: "I'd prefer to", "we would rather": what follows is what the writer would sooner do ("leave
#: aside X", "skip X")
_PREFER_TO = r"(?:i|we)\s*(?:would|should|['\u2019]d)\s+(?:prefer|like|rather)\s+(?:to\s+)?"

#: what "sans" and "bar" must be followed by to leave something out
_DETERMINERS = r"the|a|an|any|all|his|her|its|their|those|these|that|this"

#: what a thing is made of or by ("made from cow's milk", "brewed with barley")
MADE_OF = r"made|prepared|cooked|brewed|baked|distilled|fermented"

#: prepositions of place that open a modifier as "in" does ("the ones near Termini")
LOCATIVE = r"near|outside|around|within|along|across|beyond|inside"

# Words after "not"/"never" that make it something other than an exclusion.
_NOT_FOLLOW_EXCEPT = (
    r"only|just|merely|simply|necessarily|to\s+mention|until|till|yet|least|even|always|quite"
    # ("not all the council drama" leaves the drama out: "the" after "all" names it)
    r"|very|so|too|as|much|more|less|all(?!\s+(?:the|that|those|these|his|her|their)\s+(?!time\b))"
    r"|every|exactly|entirely|fully|completely|sure|certain"
    r"|unlike|unusual|uncommon|unknown|a\s+lot|long|far|later|earlier|before|after|to"
    # "not that I know of", "not that bad": a clause or a degree; "not that operation anaconda
    # military thing", "snakes not that band" point at a thing left out
    r"|that(?=\s*(?:[,.;:!?)]|$)|\s+(?:i|it|he|she|we|they|you|there|this|these|those|one|much|many"
    r"|far|long|big|bad|good|different|hard|easy|important|interested|into|keen|fond|sure|great"
    r"|often|well|simple|common|old|new|high|low|expensive|cheap|difficult|useful|relevant|close"
    r"|popular|famous|well-known|known|large|small|strong|bright|hot|cold|fast|slow|clear|likely"
    r"|interesting|impressive|obvious|surprising|serious|complicated|complex|special|bothered"
    r"|worried|concerned|sick|tired|happy|excited|impressed|convinced|fussed|keen|crazy|big)\b)"
    r"|bad|half\s+bad|once\s+but"  # "not bad": good; "not once but twice"
    # "verdicts in which not a single judge dissented": nobody did, as "no one" says; a verb
    # follows its noun (not "kubrick films, not a single war film")
    r"|(?:a\s+single|one\s+single|one)(?=\s+[^\W\d_]+(?:\s+[^\W\d_]+)?\s+(?:[^\W\d_]+ed|was|were"
    r"|did|does|do|has|had|have|is|are|got|won|ran|made|took|came|went|saw|knew|voted|scored)\b)"
    # a liking, not a negation: "my son can't get enough of spongebob", "can't help but laugh",
    # "the gadgets i couldn't live without"
    r"|get\s+enough|help\s+but|live\s+without"
    # "my hands aren't what they used to be"; "I didn't know.", "we don't mind": a state of the
    # writer, no item
    r"|what\s+(?:it|they|he|she|i|we|you)\s+used\s+to"
    r"|(?:know|care|mind|remember)(?=\s*(?:[.;!?]|$))"
    # "WHERE col IS NOT NULL": a database's test, not a topic
    r"|null\b"
    # "i've already seen interstellar so that one doesn't count": a verdict on an item named
    # before, no item of its own
    r"|count(?=\s*(?:[.;!?,)]|$))"
)
#: "but not" and an adverb that ends the clause qualifies what comes before: "series that
#: converge but not absolutely", "but not uniformly" (not a topic left out)
_ADVERB_LAST = (
    r"[a-z]{3,}(?:ally|ably|ibly|ously|ively|ently|antly|utely|etely|ictly|ectly|ormly|arly"
    r"|ately|arily)\s*(?:[.,;:?!)]|$)"
)
MENTION_VERB = (
    r"mention(?:ing|s)?|discuss(?:ing)?|includ(?:e|ing)|referenc(?:e|ing)|refer(?:ring)?\s+to"
    r"|cover(?:ing)?|talk(?:ing)?\s+about|touch(?:ing)?\s+(?:on|upon)|bring(?:ing)?\s+up"
    r"|address(?:ing)?|involv(?:e|es|ing)|relat(?:e|es|ing)\s+to|focus(?:ing)?\s+on"
    r"|describ(?:e|ing)|go(?:ing)?\s+into|delv(?:e|ing)\s+into|dwell(?:ing)?\s+on"
    r"|get(?:ting)?\s+into|cit(?:e|ing)|consider(?:ing)?|be\s+about|being\s+about"
    # "einstein's photoelectric effect, without comparing him to newton"
    r"|compar(?:e|ing)\s+(?:(?:him|her|it|them|this|that|these|those)\s+)?(?:to|with)"
    r"|contain(?:s|ing)?|featur(?:e|es|ing)"
    # where a story or an event is set: "films that don't take place in space" leave space out
    r"|t(?:ake|akes|aking|ook)\s+place\s+(?:in|on|at|during)|happen(?:s|ing|ed)?\s+(?:in|on|at|during)"
    # (not "deal with": "countries that don't deal with china" trade with it)
    r"|revolv(?:e|es|ing)\s+around|cent(?:er|re)(?:s|d|ing)?\s+(?:on|around)"
)


@dataclass(frozen=True)
class Cue:
    """One negation cue: the name it is reported under and the pattern that finds it."""

    name: str  # one of the NEGATION_* names above
    pattern: re.Pattern[str]
    kind: str = "inline"  # inline | paren | fronted | verbal | neither | comma
    needs_other: bool = False  # "in addition to": only with "other/else/more" later on
    key: re.Pattern[str] | None = None  # text every match holds: no key, no need to search


#: text every negation match holds: "not", "never" or one of the contracted forms in ``NT``
_NEGATION_KEY = rf"not|never|{NT}"


def _cue(
    name: str, regex: str, kind: str = "inline", needs_other: bool = False, key: str = ""
) -> Cue:
    return Cue(
        name, re.compile(regex, re.I), kind, needs_other, re.compile(key, re.I) if key else None
    )


#: what a price is quoted without ("day rates excl. VAT", "hotel rates excluding tax"): a basis of
#: the figure, not a topic left out
_PRICE_BASIS = (
    r"(?!\s+(?:VAT|GST|HST|sales\s+tax|tax(?:es)?|tips?|gratuity|shipping|postage|delivery|fees"
    r"|service\s+charge)"
    # (the word ends the phrase: not "excluding tax withholding estimates", a topic)
    r"(?=\s*(?:[,.;:)!?]|$|\s(?:for|in|on|per|and|or|from|at|to|only|included)\b)))"
)

_EXCEPTION_WORDS = (
    # ("megakaryocytes - everything other stuff than the endomitosis")
    # ("other then", as typed; not "other then-current")
    rf"excluding{_PRICE_BASIS}|exclude|excepting|exc?ept(?:\s+for)?|(?<!\bnone\s)other\s+(?:(?:stuff|things?)\s+)?th(?:an|en(?!-))"
    r"|apart\s+from|aside\s+from|besides"
    # "football players of argentina apart of messi", as a learner writes it (not "is apart of
    # the EU", "a part of" misspelt)
    r"|(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbe\s)(?<!\bbeen\s)(?<!\bbeing\s)"
    r"(?<!\bbecome\s)(?<!\bbecame\s)apart\s+of"
    # "learn german grammar online free apart Duolingo": "apart" before a name, as a learner
    # writes "apart from"
    rf"|(?=apart\s+(?-i:[A-Z])){_APART}"
    r"|not\s+including|not\s+counting|leaving\s+out|omitting|ignoring|disregarding"
    # "I'd like to look beyond melanoma"
    r"|(?:(?:i|we)\s*(?:would|['\u2019]d)\s+like\s+to\s+|(?:i|we)\s+want\s+to\s+)?look(?:ing)?\s+beyond"
    r"|outside\s+of|rather\s+than|instead\s+of|as\s+opposed\s+to|free\s+of(?!\s+charge\b)"
    r"|with\s+the\s+exception\s+of|(?:leaving|setting|putting)\s+(?:aside|to\s+one\s+side)"
    rf"|excl\b\.?{_PRICE_BASIS}"
    r"|exclusive\s+of|to\s+the\s+exclusion\s+of|as\s+distinct\s+from"
)

SET_ASIDE = re.compile(
    rf"(?:[,;(]|{DASH}|\bbut)\s*(?:excluding|except(?:\s+for)?|other\s+than|apart\s+from"
    r"|aside\s+from|besides|not\s+including|not\s+counting|leaving\s+(?:out|aside)"
    r"|(?:setting|putting)\s+aside|with\s+the\s+exception\s+of)\b"
    # "which genocides are discussed apart from the armenian genocide?": words that only
    # subtract, even inside the clause
    r"|\b(?:apart|aside)\s+from\b"
    # "who lives in highland areas ... - skip sri lanka pls": an instruction set off after the
    # question says what to leave out of the results, not what the answer is
    rf"|(?:[,;(]|{DASH})\s*(?:(?:but|and|so)\s+)?{_PLEASE}"
    r"(?:skip|omit|exclude|ignore|disregard|leave\s+out)\b",
    re.I,
)
"""An exception set off from the rest ("Which rivers flow through Germany, apart from the
Rhine?"): it leaves items out of the answer, unlike one inside a clause ("registered by any
organization other than ...") or a contrast ("moved to Saturday, instead of Sunday")."""

#: verbs whose object "nothing about X" is ("i know nothing about cars")
_OBJECT_OF = _not_after(
    "know knew knows say says said do does did find found hear heard is was are were mean means"
    " meant care cares learn learned learnt"
)

#: the first words of nouns in "bar" ("any sports bar", "any snack bar"): no exception there
_BAR_COMPOUND = _not_after(
    "sports wine snack hotel cocktail chocolate candy granola protein energy space tool title"
    " menu status search task side salad sushi tapas karaoke piano beach juice coffee dive gay"
    " cereal breakfast oyster raw milk tiki cash gold"
)
#: what "bar" is followed by where it is a noun ("bar charts", "bar staff") or a verb ("bar them
#: from"), not "except"
_BAR_NOT_BEFORE = (
    r"none|chart|charts|graph|graphs|code|codes|exam|exams|food|staff|stool|stools|mitzvah|mitzvahs"
    r"|snack|snacks|bill|tab|tabs|counter|crawl|crawls|fight|fights|scene|area|service|menu|price"
    r"|prices|owner|owners|tender|tenders|association|council|magnet|magnets|soap|soaps|cookie"
    r"|cookies|stock|top|tops|room|rooms|license|licence|and|or|in|at|on|of|with|for|to|is|are"
    r"|was|were|that|which|where"
)

#: what "outside" follows where it leaves a place, a field or a role out: a comma, a plural or a
#: gerund ("stadiums outside england", "IFN signalling outside antiviral defence")
_OUTSIDE_AFTER = rf",|{_AFTER_PLURAL}{_NOT_PLACED}|(?<=[^\W\d_]ing)"

#: what a fronted "not" opens where it leaves nothing out ("Not only ...", "not sure - ...")
_NOT_FRONTED_FALSE = (
    r"only|just|sure|really|that|so|too|even|quite|exactly|necessarily|always|much|many|yet|now"
    r"|bad|all|everyone|everything|every"
)
#: ... and, before "but", where "Not X but Y" is no exclusion of X ("not a fan but", "not the
#: cheapest but")
_NOT_BUT_FALSE = rf"{_NOT_FRONTED_FALSE}|a|an|one|the\s+cheapest|the\s+best|very"

CUES: tuple[Cue, ...] = (
    _cue(
        NEGATION_PARENTHETICAL,
        # "(anything but metallica)", "(anything except X)", "(minus the creamy ones)"
        rf"\(\s*(?:but\s+|so\s+|and\s+)?(?:please\s+)?(?:(?:anything|everything|anyone|anybody|any1)\s+"
        # ("(NO, polyamines)" is nitric oxide: "no" in lower case or capitalised only)
        # ("(no longer accepted today)": "no" before a word that makes it no negation)
        rf"(?:but|except(?:\s+for)?)|minus(?!\s+signs?\b)|{_EXCEPTION_WORDS}|without|not"
        rf"|(?-i:[Nn]o)(?!\s+(?:{NO_FOLLOW_EXCEPT})\b)|unrelated\s+to|never\s+mind"
        rf"|do\s+not\s+(?:{MENTION_VERB})|don't\s+(?:{MENTION_VERB}))\b",
        "paren",
    ),
    _cue(
        NEGATION_NEITHER_NOR,
        rf"\b(?:(?:that|which|who)\s+)?(?:(?:{AUX})\s+)?neither\b",
        "neither",
        key="neither",
    ),
    _cue(
        NEGATION_IN_ADDITION_TO,
        r"^\s*(?:and\s+)?in\s+addition\s+to\b",
        "fronted",
        needs_other=True,
    ),
    _cue(
        NEGATION_FRONTED_EXCEPTION,
        # ("Anything but Grisham, please; ...")
        r"^\s*(?:and\s+)?(?:apart\s+from|aside\s+from|besides|except\s+for|other\s+than|excluding"
        r"|(?:anything|everything)\s+(?:but|except)"
        r"|without|not\s+counting|leaving\s+aside|instead\s+of|rather\s+than|except|minus"
        r"|with\s+the\s+exception\s+of"
        r"|never\s+mind|skip(?:ping)?|ignor(?:e|ing)|leav(?:e|ing)\s+out"
        # "Not Christmas — winter festivals of light", "no NSAIDs - pain relief for cats": a dash
        # ends the item ("No Time to Die - ...", a title, opens with a capital word)
        rf"|(?:(?:(?-i:no|No(?=\s+[a-z]))(?!\s+(?:{NO_FOLLOW_EXCEPT})\b)"
        r"|nothing\s+(?:with|about|on|involving|containing))"
        # ("no vaccines please, flu symptoms only": or a polite word)
        r"(?=\s+[^\s,;:.?!\u2013\u2014-][^,;:.?!\u2013\u2014]{0,40}?"
        rf"(?:{DASH}\s|\s(?:please|pls|plz)\s*[,.;:!])))"
        rf"|not(?!\s+(?:{_NOT_FRONTED_FALSE})\b)"
        rf"(?=\s+[^\s,;:.?!\u2013\u2014-][^,;:.?!\u2013\u2014]{{0,40}}?{DASH}\s)"
        # "Not Netflix but HBO shows with ...": a short item, then "but" and what is wanted
        rf"|not(?!\s+(?:{_NOT_BUT_FALSE})\b)(?=(?:\s+[^\s,;:.?!]+){{1,4}}\s+but\s+(?!(?:not|also|only|still)\b)\w))\b",
        "fronted",
    ),
    _cue(
        NEGATION_EXCEPTION,
        # "minus" and "lacking" only after a comma: "the minus strand", "mice lacking SVCT2"
        rf"(?:,\s*|(?<!\s)\s+but\s+|\b)(?:{_EXCEPTION_WORDS})(?:(?<=\.)|\b)|(?:[,:]|(?<=[^\W\d_])\.{{2,}}|(?:(?<=[^\W\d_])|(?<=\)))[.?!]+|{DASH})\s*(?:minus|lacking|never\s+mind|(?:anything|anythin|everything|anywhere|anyone|anybody|any1)\s+but)\b"
        # "... and so on. anything but cluny": after a sentence stop too
        # ("(..., asthma). anything but the chest pain stuff": after a bracket too)
        r"|(?:(?<=\w)|(?<=\)))[.?!]\s+(?:anything|anythin|everything|anywhere|anyone|anybody"
        r"|any1)\s+but\b"
        # "interested in how the boys build a society, and less in the slide into savagery": what
        # the writer cares less for, after what they want
        # (set off by a comma: "more emphasis on the Army and less on the Guard" describes the
        # answer)
        r"|,\s*(?:and|but)\s+(?:much\s+|far\s+)?less\s+(?:so\s+)?(?:in|on|about)\b"
        # "history podcasts anything but world war two": run on after a plural (not "it's
        # anything but easy")
        rf"|(?=\s+(?:anything|everything)\s+but\b){_AFTER_PLURAL}\s+(?:anything|everything)\s+but\b"
        # "hotels anywhere but paris", "manor houses somewhere outside England": a place left out
        rf"|(?<=[\w.])\s+anywhere\s+but\b|(?:(?<=[\w.,])\s+|{DASH}\s*)(?:somewhere|anywhere)\s+"
        r"outside(?:\s+of)?\b"
        # "stadiums outside england", "motorway rules, outside the united states", "IFN signalling
        # outside antiviral defence": a place or a field left out, after a comma, a plural or a
        # gerund (not "an imam outside the mosque", "stood outside the city", "lies outside",
        # "books outside his canon", "the outside world", "outside help")
        # ("films set outside the US", "companies based outside europe": after a participle of
        # place)
        # ("manor houses (outside the UK please, we did britain last year)": in brackets)
        rf"|(?:(?:{_OUTSIDE_AFTER}"
        r"|(?<=\bset)|(?<=\bbased)|(?<=\blocated)|(?<=\bfilmed)|(?<=\bshot)|(?<=\bborn)"
        # ("crimes and killings that happened outside the US")
        # (not "made outside the US": "cartoon tv series made outside the US (so no american
        # shows)" ranks better with the place kept in the positive part, where the dense part
        # reads it)
        r"|(?<=\bhappened)|(?<=\boccurred)|(?<=\btook\splace))\s+"
        # ("vehicle regulations - registration, trailer sizes - outside the US": after a dash)
        # ("english football clubs and their seasons, any club outside london": "any" set off)
        rf"|\(\s*|{DASH}\s*|,\s*any(?:\s+[^\W\d_]+)?\s+)outside\s+"
        r"(?!(?:of|his|her|their|its|my|our|your|the\s+box|box|help|world|investors?|temperature"
        r"|air|interests?|hours|work)\b)(?=[^\W\d_])"
        # "SREBP transcription factors outside their classic job in the liver", "notch signalling
        # outside its classic role in development": what the thing is best known for is left out
        rf"|(?:(?:{_OUTSIDE_AFTER})\s+)outside\s+(?:its|their|his|her)\s+"
        r"(?:(?:classic|classical|usual|normal|traditional|typical|canonical|main|known|best-known"
        r"|established|original)\s+)?(?:job|role|function|place|context|setting|domain|home|niche)s?"
        r"\s+(?:in|of|as|at)\s+"
        # "All but IE 11, please": set off by a stop, a comma or a dash ("all but won" is "nearly")
        rf"|(?:(?<=[.?!:;,])\s*|{DASH}\s*)all\s+but\b"
        # "minus" with no comma only before a name, "any" or "the", or between two words, not
        # after an article or "or": "Spain minus Madrid", "beatles albums minus abbey road", "ip
        # addressing minus ipv6" (not "the minus strand", "a minus sign", "plus or minus one")
        r"|(?<=[\w)\]])(?<!\bor)\s+minus\s+(?=(?-i:[A-Z])|(?:any|anything|all|those|the)\b)"
        # "... in Pennsylvania ... minus the Amish quilts", ", minus the sequels"
        rf"|(?:,|\.{{3}}|\u2026|{DASH})\s*minus\s+(?=(?:the|any|all|those|these)\b)"
        # "median rent by metro 2015-2023 minus nyc and sf" (not "10 minus x", "5 minus two")
        r"|(?<=\d)\s+minus\s+(?!(?:one|two|three|four|five|six|seven|eight|nine|ten|half)\b)"
        r"(?=[^\W\d_]{2})"
        r"|(?<=[a-z)\]])(?<!\bor)(?<!\bthe)(?<!\ba)(?<!\ban)\s+minus\s+"
        r"(?!(?:strand|strands|sign|signs|end|ends|one|zero|infinity|sense|polarity)\b)(?=[a-z])"
        # "sans" (not "sans serif", "comic sans") and "bar" (not "bar none", "a bar of") before
        # a determiner, "bar" only set off by a comma or dash: "math and inventions sans the
        # eureka story", "Jackson's presidency, bar the bank war"
        rf"|(?:(?<=[\w)\]])(?<!\bcomic)\s+|(?:,|{DASH})\s*)sans\s+(?!(?:serif|souci|culottes)\b)(?=[^\W\d_])"
        rf"|(?:,|{DASH}|(?<=\)))\s*(?:sans|bar)\s+(?=(?:{_DETERMINERS})\b)"
        # "Every actor who's played 007, bar Sean Connery"
        rf"|(?:,|{DASH})\s*bar\s+(?=(?-i:[A-Z]))"
        # ... and as typed in lower case: "hiking around the fjords, bar bergen's seven mountains"
        # (not "pubs, bar food", "charts, bar graphs")
        rf"|(?:,|{DASH})\s*bar\s+(?!(?:{_BAR_NOT_BEFORE})\b)(?=[a-z])"
        # "government ministers, any country but australia"
        rf"|(?:,|{DASH})\s*any\s+(?!(?:more|less|other|way|time|day)\b)[^\W\d_]+\s+but\s+(?!(?:not|also|then|still)\b)"
        # "cases from any jurisdiction save Australia", "any sport bar american football": "save"
        # or "bar" after "any" and a noun ("can any charity save the reef" saves, "any sports bar
        # in leeds" is a bar); the cue starts at "save" or "bar" (group ``at``)
        r"|\bany\s+(?!(?:more|less|other|way|time|day|one|body)\b)[^\W\d_]+(?P<at>\s+save\s+(?=(?-i:[A-Z]))"
        rf"|{_BAR_COMPOUND}\s+bar\s+(?=(?-i:[A-Z])|(?:the|any|all|those)\b|(?!(?:{_BAR_NOT_BEFORE})\b)[a-z]))"
        # "save for" set off, or after a word that cannot be its subject (a singular noun:
        # "culture save for the war"; not "how to save for", "we save for", "parents save for")
        rf"|(?:,|{DASH})\s*save\s+for\b"
        rf"|(?<=[a-z])(?<![s']){_SAVE_FOR_NOT_AFTER}"
        r"\s+save\s+for\s+(?=(?:the|a|an|his|her|its|their|any|all)\b)",
        "comma",
        key=r"excl|exc?ept|other|apart|aside|side|besides|not|leaving|omitting|ignoring|disregarding|beyond"
        r"|outside|rather|instead|opposed|minus|lacking|free|never|anything|sans|bar|save|all"
        r"|everything|exclusive|anywhere|anyone|anybody|any1|exclusion|distinct|somewhere|less|anythin|any",
    ),
    _cue(
        NEGATION_EXCEPTION,
        # "Metformin research on anything but diabetes": after a preposition, "anything but"
        # names what is left out (not "is anything but simple", a degree)
        r"(?:(?<=\bon\s)|(?<=\bin\s)|(?<=\bfor\s)|(?<=\bwith\s)|(?<=\babout\s)|(?<=\babt\s))"
        r"(?:anything|everything)\s+(?:but|except)\b",
        key="anything|everything",
    ),
    _cue(
        NEGATION_EXCEPTION,
        # "pain management, opioids aside", "composers, Bach excluded", "plays with the tragedies
        # left out", "but leave Notre-Dame out of it": the excluded item comes before its cue
        # (after a comma, a dash, "with", an ellipsis or a full stop: "hep c stuff excluded",
        # ". assassination can stay out of it"; an initial's stop belongs to the item: "Ulysses
        # S. Grant excluded")
        rf"(?:(?:[,;]\s*(?:but\s+)?(?:with\s+)?|\bwith\s+|\bbut\s+|{DASH}\s*(?:with\s+)?|[(\[]\s*"
        r"|(?<=[\w)\]])(?:\.{1,3}|\u2026|[?!]+)\s+)"
        # "- though I confess X hold no interest for me", "grateful if X were left out", "ask that
        # X be left out" (not any "if" or "that": "that land would be forfeited if ...")
        r"(?:(?:though|although)\s+(?:i\s+(?:confess|admit|must\s+say)\s+"
        # "though I would ask that della Genga be set aside"
        r"|(?:i|we)\s*(?:would|should|['\u2019]d)\s+(?:ask|request|suggest)\s+that\s+"
        rf"|{_PREFER_TO}leave\s+)?"
        r"|(?:i|we)\s*(?:would|should|['\u2019]d)\s+be\s+(?:grateful|glad|happy|obliged)\s+if\s+"
        # "- she says the herms scandal has been done to death, so not that"
        rf"|{_REPORTER}\s+(?:(?:specifically|explicitly|also)\s+)?(?:says|said|thinks|feels)\s+(?:that\s+)?)?"
        r"|\b(?:(?:(?:would|['\u2019]d)\s+)?(?:ask|request|suggest|prefer)\s+that|(?:grateful|glad|happy|prefer(?:\s+it)?)\s+if)"
        r"\s+)"
        # a relative clause set off by a comma is no item ("hotels near the beach, where dogs can
        # go"; after a semicolon "where he's buried ... don't matter" names one)
        r"(?!(?:(?<=,)|(?<=,\s))\s{0,8}(?:where|when|whenever|wherever|which|who|whom|whose|that"
        r"|if|unless|because|since)\s)"
        # "- leave the breast cancer studies aside": the verb is the cue, not part of the item
        # ("can we leave the boy bands out?": the request's own cue)
        r"(?!\s{0,8}(?:(?:but|and|so)\s{1,8})?(?:(?:can|could)\s+(?:we|you|i)\s+(?:please\s+)?)?"
        rf"(?:please\s+|just\s+|{_PREFER_TO})?"
        r"(?:leav(?:e|ing)|keep|give|set(?:ting)?|put(?:ting)?)\s)"
        # (a bracketed list inside the item is part of it: "east asian calligraphy (chinese,
        # japanese) isn't wanted")
        rf"(?=(?:[^,;.?!()\-\u2013\u2014]|(?<=\s\w)\.(?=\s)|(?<=\w)-(?=\w)|(?<=\s)\([^()]{{1,40}}\))"
        r"{1,60}?"
        rf"(?:\s+|{VERDICT_COMMA})(?:{AFTER_ITEM}"
        rf"|{POSTPOSED}|{_OUT_LAST}){_VERDICT_END})"
        # a clause of its own that opens on its item, a few words that join nothing ("Politicians
        # from countries other than the US; French politicians need not be included."): an empty
        # cue at the clause's start
        # "Carnival and Royal Caribbean aside, which cruise lines ...": a fronted pair set aside
        r"|^(?=(?:(?!(?:with|that|on|of|about|would|ask|if|which|what|who|how)\b)\w[\w'\u2019-]*\s+)"
        r"{1,6}(?:aside|excepted|excluded)\s*,)"
        # (not a question whose verb is a passive: "which tribes were removed? the Cherokee")
        r"|^(?!(?:which|what|who|whom|whose|how|when|where|why)\b)"
        r"(?=(?:(?!(?:with|that|and|or|on|of|about|would|ask|if)\b)\w[\w'\u2019-]*\s+){1,5}"
        rf"{_not_after('were was is are be been being get gets got')}"
        rf"(?:{AFTER_ITEM}|{POSTPOSED})(?:\s+(?:{FOR_NOW}))?(?:\s*(?:[.;?!)]|$|,)|{DASH}\s))"
        # ("(leave the astronauts out of it)": a bracketed request)
        # "keep the vaccine stuff out of it, just flu symptoms": the request comes first, and a
        # comma, a colon or a dash ends it ("keep kids away from screens" asks how)
        r"|^\s*(?:leave|keep)\s+"
        r"(?=(?:[^,;:.?!()]){1,60}?\s+(?:out(?:\s+of\s+(?:it|this|that))?|alone"
        rf"|away\s+from\s+(?:me|us))\s*(?:[,;:]|{DASH}\s))"
        rf"|(?:,\s*|\(\s*|(?<=[\w)\]])(?:\.{{1,3}}|\u2026|[?!]+)\s*|{DASH}\s*"
        r"|\b(?:but|and|please|just|so)\s+"
        r"|\b(?:can|could)\s+(?:we|you|i)\s+(?:please\s+)?"
        # "she asked me to keep Makhno and his anarchists out of it"
        rf"|\b{_REPORTER}\s+(?:said|says|asked|asks|wants|wanted)\s+(?:(?:me|us|you)\s+)?to\s+"
        # "though I would rather leave the visual side out of the segment"
        rf"|\b(?:though|although)\s+{_PREFER_TO})"
        r"(?:(?:leave|leaving|keep|keeping)\s+(?!(?:aside|out)\b)"
        # (a bracketed list inside the item is part of it: "keep the chinese state hacking
        # (operation aurora, ghostnet) out of it")
        r"(?=(?:[^,;.?!()]|(?<=\s\w)\.(?=\s)|(?<=\s)\([^()]{1,40}\)){1,60}?"
        r"\s+(?:out|alone|off\s+the\s+(?:list|table)|away(?:\s+from\s+(?:me|us))?)\b)"
        # "-- don't bring the slavery question into it"
        r"|(?:do\s+not|don['\u2019]?t)\s+bring\s+"
        r"(?=(?:[^,;.?!()]|(?<=\s\w)\.(?=\s)){1,60}?\s+into\s+(?:it|this|that)\b)"
        # "but give the cartoons a miss"
        r"|give\s+(?=(?:[^,;.?!()]|(?<=\s\w)\.(?=\s)){1,60}?\s+a\s+miss\b))"
        # "leave the King Arthur angle to one side", "leaving MDM2 to one side", "though I'd
        # prefer to leave the Australian ones aside"
        # ("(leave the genocide recognition issue aside)": in brackets)
        rf"|(?:^|[,;.?!(]\s*|{DASH}\s*|\b(?:but|and|please|just|though|although)\s+)"
        rf"(?:{_PREFER_TO})?"
        r"(?:leav(?:e|ing)|set(?:ting)?|put(?:ting)?)\s+"
        r"(?=(?:[^,;.?!()]|(?<=\s\w)\.(?=\s)){1,60}?\s+(?:to\s+one\s+side|aside)"
        r"(?:\s+if\s+(?:you\s+can|possible))?\s*(?:[.;?!),]|$|\s(?:since|because|as|cos|coz|cuz)\b))",
        "aside",
        key=r"\b(?:aside|excluded|excepted|included|out|omitted|removed|without|table|wanted|interested"
        r"|skipped|over|news|me|us|side|interest|use|search|searching|for|want|need|after|it"
        r"|this|that|needing|already|know|well|else|read|seen|covered|needed|least|all|count|scope"
        r"|disregarded|ignored|dropped|inquiry|enquiry|question|brief|done|with|list|entirely"
        r"|request|project|review|matter|much|mentioned|considered|discussed"
        r"|altogether|completely|them|off|limits|relevant|irrelevant|here|now|skip|drop|ignore"
        r"|did|saw|those|mean|meant|possible|no|go|pass|miss|apart|unwanted|em|consideration"
        r"|discussion|one|about|of|line|thing|area|field|department|concern|focus|bag|tea|nope|nah"
        r"|cover|story|matter|topic|question|issue|subject|into|altogether|can|possible|required"
        r"|necessary|wait|remit|purview|booked|got|death|overdone|visited|watched|tried|heard|used|to|picture"
        r"|equation|mix|excl|him|her|round|list|quiz|set|game|episode|show|segment|point|purposes|shelf|alone"
        r"|assessment|report|summary|piece|project|purpose|topic|assignment|essay|plenty|lots|lot"
        r"|these|paper|thesis|talk|article|class|lesson|lecture|newsletter|banned|ones|kind|type"
        r"|guy|place|away|apply|ok|okay|allowed|welcome|acceptable|option|interesting|ick|creeps|absolutely|hell|heck|definitely|def)"
        rf"{_VERDICT_END}"
        r"|\b(?:not\s+relevant|irrelevant)\s+(?:to|for)\s|\bleft\s+out\s+of\s"
        r"|\bleave\s|\bleaving\s|\bkeep\s|\bbring\s|\bset(?:ting)?\s|\bput(?:ting)?\s|\bfor\s+(?:another|a\s+later"
        r"|later|the\s+next)\b",
    ),
    _cue(
        NEGATION_REFRAIN,
        r"(?:(?:,|(?<!\s))\s*\b(?:but|and)\s+)?(?:(?:could|can|would|will)\s+you\s+)?"
        r"(?:(?:please|pls|plz)\s+)?"
        # (not after a plural or a relative: "communities whose members refrain from paying
        # interest" says what the answers do)
        r"(?:(?<=\bpls\s)|(?<![a-rt-z]s\s)(?<!\bthey\s)(?<!\bwho\s)(?<!\bthat\s)(?<!\bwhich\s)"
        r"(?<!\bpeople\s))refrain(?:ing)?\s+from\b"
        rf"|(?:^\s*|[,;(]\s*|(?<=[\w)\]])(?:\.{{3}}|\u2026|[.?!]+)\s*|{DASH}\s*"
        r"|\b(?:but|and|please|though|although)\s+)"
        r"(?:so\s+(?=(?:i|we)\b))?"  # ", so I would rather not wade through X"
        r"(?:(?:could|can|would|will)\s+you\s+)?"
        # a request passed on: "she said to spare her the equations", "he asked us to leave out X"
        # ... or told as it was said: "The editor says skip the breakdown"
        rf"(?:{_REPORTER}\s+(?:said|says|asked|asks|wants|wanted)\s+"
        r"(?:(?:(?:me|us|you)\s+)?to\s+|(?=(?:skip|omit|ignore|exclude|leave\s+out)\b)))?"
        # "though I should prefer to leave aside X", "I'd rather skip X", "I would be grateful if
        # you could leave aside X"
        rf"(?:{_PREFER_TO}"
        r"|(?:(?:i|we)\s*(?:would|['\u2019]d)\s+be\s+(?:grateful|glad|thankful)\s+)?"
        r"if\s+you\s+(?:could|would|can)\s+(?:please\s+)?)?"
        # "I'd leave out fish oil", "we would skip the sequels"
        r"(?:(?:i|we)\s*(?:['\u2019]d|would)\s+(?=(?:exclude|omit|leave\s+out|skip|ignore|drop)\b))?"
        # "I want to avoid the paid ones", "we'd like to avoid X"
        r"(?:(?:i|we)\s*(?:want|wanna|need|would\s+like|['\u2019]d\s+like|would\s+prefer"
        r"|['\u2019]d\s+prefer)\s+(?:to\s+)?(?=(?:avoid|exclude|omit|skip|ignore)\b))?"
        # ", trying to avoid anything with added sugar"
        r"(?:(?:(?:i|we)\s*(?:['\u2019]m|['\u2019]re|am|are)\s+)?trying\s+to\s+(?=avoid\b))?"
        # "I'd prefer passages that stay away from the olympics": the texts wanted, told by what
        # they keep clear of
        r"(?:(?:(?:i|we)\s*(?:['\u2019]d|would)\s+(?:prefer|like|want)|give\s+(?:me|us)|show\s+(?:me|us))"
        r"\s+(?:passages|texts|articles|papers|sources|results|ones|material|stuff)\s+(?:that|which)"
        r"\s+(?=(?:stay|steer|keep)\s))?"
        # ("classical composers, any era — only skip the italian ones")
        r"(?:please\s+|pls\s+|plz\s+|kindly\s+|just\s+|only\s+)?(?:avoid(?:ing)?|exclude|omit|leave\s+out|ignore|disregard"
        # "drop anything done in east asian cohorts" (a determiner after it: "drop in sales" is
        # no request)
        r"|drop(?:ping)?\s+(?=(?:the|all|any|anything|everything|those|these|that|this)\b|(?-i:[A-Z]))"
        r"|skip(?:ping)?|forget(?:ting)?(?:\s+about)?|spare\s+(?:me|us|her|him|them)"
        # a speaker's strike-through: "scratch the ones with a layover", "cross off anything by
        # stephen king", "rule out chromebooks", "take out miles davis" (not "take out food")
        r"|scratch\s+(?=(?:the|all|any|anything|everything|those|these|that)\b)|cross\s+off"
        r"|rule\s+out|take\s+out\s+(?!(?:food|orders?|menus?|options?|places?|only|service)\b)"
        # "pls dont give me the cloning debate", "but ditch the alchemy stuff"
        r"|(?:do\s+not|don['\u2019]?t)\s+give\s+(?:me|us)|ditch\s+(?=(?:the|all|any)\b)"
        # "Please to not show me results about iPhone", "don't show me anything on keto", as a
        # learner or a hurried writer puts it
        r"|(?:to\s+)?(?:not|do\s+not|don['\u2019]?t)\s+show\s+(?:me|us)"
        r"(?:\s+(?:results|anything|things|stuff|articles|ones|passages))?"
        r"(?:\s+(?:about|on|with|of|from|for))?"
        # "remove please everything about keto"
        r"|(?:remove|exclude)\s+(?:please\s+)?(?=(?:the|all|any|anything|everything|those|these)\b)"
        # "please don't suggest Notion", "hard pass on jump scares", "i'll pass on the musicals"
        # ("pls dont say join a club", "miss me with pumpkin spice", "idc abt crypto", ", pass on
        # meditation apps")
        r"|(?:do\s+not|don['\u2019]?t)\s+(?:suggest|recommend|say|tell\s+me(?:\s+to)?)"
        r"|(?:a\s+)?hard\s+pass\s+on|miss\s+me\s+with|idc\s+(?:abt|about|bout)"
        r"|pass\s+on\s+(?!to\b)(?=[^\W\d_])"
        r"|(?:i|we)(?:\s*['\u2019]ll|\s+will)\s+pass\s+on"
        # "hold the IV fluid / HES papers pls", "hold the inuit languages" (as an order is given;
        # not "hold the line", "hold the record")
        r"|hold\s+(?=(?:the|all|any)\s+(?!(?:line|door|phone|fort|key|keys|record|records|title|breath"
        r"|lead|view|belief|position|office|rank|seat|throne|power|balance|ball|floor|stage|mic"
        r"|microphone|fire|press|reins|course|fort|elevator|lift|baby|hand|hands|rope|front|world"
        r"|same|opinion)\b))"
        r"|(?:do\s+not|don['\u2019]?t)\s+(?:bother|worry)\s+(?:with|about)"
        r"|(?:do\s+not|don['\u2019]?t)\s+care\s+(?:about|for|bout|abt|which)|stay(?:ing)?\s+away\s+from"
        r"|(?:do\s+not|don['\u2019]?t)\s+compare\s+(?:it|them|this)?\s*(?:with|to)"
        r"|(?:there['\u2019]?s\s+)?no\s+need\s+(?:for|to\s+(?:cover|include|mention))"
        r"|(?:i|we)(?:\s+have|\s*['\u2019]ve)\s+no\s+(?:(?:use|need)\s+for|interest\s+in)"
        r"|(?:leave|set|put)\s+aside"
        # "I'd like the material to steer clear of X", "stay clear of X"
        r"|(?:(?:i|we)\s*(?:['\u2019]d|would)\s+(?:like|prefer|want)\s+(?:it|them|the\s+[\w-]+)\s+to\s+"
        # "but i want to steer clear of the migraine studies"
        # (", want to steer clear of Tokyo this time": the subject left out)
        r"|(?:(?:i|we)\s+)?(?:want|need|mean|plan|intend)\s+to\s+)?"
        r"(?:steer|stay|keep)(?:ing)?\s+(?:well\s+)?clear\s+of"
        # a request passed on that names nothing of it: "she said nothing on braudel"
        rf"|{_REPORTER}\s+said\s+nothing\s+(?:on|about|of)"
        # "though I would rather not be given material on nuclear fusion", "I'd rather not read
        # about the war"
        r"|(?:i|we)\s*(?:would|should|['\u2019]d)\s+(?:rather|prefer)\s+not\s+(?:to\s+)?"
        r"(?:be\s+(?:given|sent|shown)|get|have|see|read(?:\s+about)?|hear(?:\s+about)?|receive"
        r"|(?:wade|sift|dig|trawl)\s+through|deal\s+with|bother\s+with"
        r"|(?:go|drift|stray|wander|venture|get)\s+into|cover|include)(?:\s+(?:any\s+)?(?:material|anything|stuff|info|information"
        r"|articles|papers|passages|texts|sources)(?:\s+(?:on|about|regarding|concerning))?)?)\b",
        key="refrain|avoid|exclude|omit|leave|ignore|disregard|skip|drop|aside|forget|spare|bother|nothing|clear|give|ditch"
        "|hold"
        "|scratch|cross|rule|take|suggest|recommend|pass|show|remove|say|tell|miss|idc"
        r"|worry|care|away|need|compare|use|grateful|glad|thankful|could|would|interest|rather"
        r"|prefer",
    ),
    _cue(
        NEGATION_REFRAIN,
        # an instruction run on with no stop before it: "serial killers and what happened to them
        # skip anything that's a movie", "trench soldiers that kind of thing forget anybody who was
        # in the navy" (after a word that cannot be its subject; a determiner after it)
        rf"(?<=[a-z]){_RUN_ON_NOT_AFTER}\s+(?:skip|forget|ignore|exclude|omit|leave\s+out)\s+"
        r"(?=(?:anything|everything|anybody|anyone|everyone|all|any|those)\b)",
        key=r"\b(?:skip|forget|ignore|exclude|omit|leave\s+out)\s+(?:any|every|all|those)",
    ),
    _cue(
        NEGATION_REFRAIN,
        # ", dont need the bretton woods origin story": set off, with no subject ("I don't need"
        # is a dislike; "but do not need meeting attendance" states a property)
        rf"(?:[,;(]\s*|(?<=[\w)\]])(?:\.{{1,3}}|\u2026|[.?!]+)\s*|{DASH}\s*)(?:please\s+|just\s+)?"
        r"(?:do\s+not|don['\u2019]?t)\s+(?:need|want)(?:\s+to\s+(?:know|hear|read)(?:\s+about)?)?\b",
        key="need|want",
    ),
    _cue(
        NEGATION_NOTHING_ABOUT,
        r"(?:(?:,|(?<!\s))\s*\b(?:and|but)\s+)?(?:with\s+)?nothing\s+(?:is\s+|was\s+|being\s+)?"
        r"(?:said|mentioned|stated|discussed)\s+(?:about|of|on|regarding)\b",
        key="nothing",
    ),
    _cue(
        NEGATION_NO_MENTION,
        r"(?:(?:,|(?<!\s))\s*\b(?:but|and)\s+)?(?:with\s+)?no\s+(?:mention|discussion)s?\s+of\b",
        key="mention|discussion",
    ),
    _cue(
        NEGATION_NO,
        # after "with", "but", "and" or a comma only: "has no effect" states a predicate;
        # "but nothing with nuts" as "but no nuts" ("nothing but" is no exclusion)
        # (", only nothing from buenos aires", as a learner writes it)
        r"(?:(?:,|(?<!\s))\s*\b(?:but|and)\s+(?:also\s+)?(?:please\s+)?|[,;]\s*(?:(?:though|although|so|only)\s+)?"
        rf"{_PLEASE}"
        rf"|(?<=[\w)\]])(?:\.{{1,3}}|\u2026|[?!]+)\s+{_PLEASE}"
        # "- please nothing about HIV", "... outside latin america — so no mexican brewers"
        rf"|{DASH}\s*(?:(?:though|although|so|only)\s+)?{_PLEASE}"
        # "Devon branch already traced so no Devon results": the reason, then what to leave out
        r"|(?<=[^\W\d_])\s+so\s+(?=no\s+(?!(?:one|longer|more|matter|doubt|need|way|idea)\b)"
        # ("allergic to shellfish so nothing with shrimp")
        r"|nothin(?:g|['\u2019])?\s+(?:with|containing|made\s+with)\s)"
        # after a closing bracket: "epics from asia (gilgamesh, ramayana type stuff) no greek ones"
        r"|(?<=\))\s+(?:please\s+|just\s+)?"
        r"|\b(?:with|having|containing)\s+"
        # "she'd prefer nothing on the nazis"
        # "lady wants wordsworth - said please no t.s. eliot": a request passed on
        rf"|(?:,|{DASH}|[.?!])\s*(?:(?:she|he|they)\s+)?(?:said|says|asked|asks)\s+(?:please\s+)?(?=no\s)"
        r"|\b(?:(?:i|we|he|she|they)\s*(?:['\u2019]d|would)\s+)?(?:prefer|rather\s+have|want|like)\s+"
        r"(?=nothin(?:g|['\u2019])?\s)"
        # typed with no comma after a plural: "tennis players no americans" (not "there is no",
        # "this has no", "yes no")
        rf"|{_AFTER_PLURAL}\s+"
        # ... or after any word where "please" follows the item: "sad songs for after a breakup
        # no taylor swift pls"
        # ("landlord wants to sell up nothing about england please the rules are different")
        # (not "i know nothing about cars": after a verb it is its object)
        r"|(?<=[^\W\d_])"
        rf"{_OBJECT_OF}"
        r"\s+(?=(?:no|nothing\s+(?:about|on))\s+(?:[^\W\d_][\w'\u2019-]*\s+){1,3}"
        r"(?:pls|plz|please|though|tho)\b"
        # "vegan cake recipe no banana and also no coconut": a second "no" says the first
        # leaves something out too
        r"|no\s+(?:[^\W\d_][\w'\u2019-]*\s+){1,3}(?:and|or)\s+(?:also\s+)?no\s"
        r"|nothing\s+(?:about|on)\s+[^\W\d_][\w'\u2019-]*(?:\s+[^\W\d_][\w'\u2019-]*){0,2}\s*$))"
        rf"(?:no\s+(?!(?:{NO_FOLLOW_EXCEPT})\b)"
        # "decisions nobody explained - no reason given": a state of the answer, not a topic
        r"(?![a-z]+\s+(?:given|known|found|recorded|reported|stated|provided|specified|available)\b)"
        # "wallace - the evolution side, none of his politics"
        r"|none\s+of\s+(?=(?:the|his|her|its|their|that|those|these|this|your|my)\s)"
        # "bassists or drummers - nobody from nirvana", "rock bands, but none from the uk"
        r"|(?:nobody|no[\s-]one|none)\s+(?:from|in|at|with)\s+"
        # ("and nothing else from the daisy family either": more of the same left out)
        r"|nothin(?:g|['\u2019])?\s+(?:else\s+)?(?:with|w/|containing|involving|made\s+with|made\s+from|about|abt|on|in|regarding"
        r"|owned\s+by|made\s+by|run\s+by"
        r"|(?:done|conducted|tested|studied)\s+(?:in|on|with)"
        r"|concerning|related\s+to|by|from|featuring|starring)\s+"
        # "films, music, radio. nothing that pokes fun at religion": the clause is the item (a
        # verb in -s right after "that"; not "nothing that is ...", "nothing that i ...")
        r"|nothin(?:g|['\u2019])?\s+(?:that|which)\s+(?!(?:is|was|has|does|goes|says)\s)(?=[a-z]+s\s)"
        # "drag racing, nothing nascar", "but nothing apollo related" (not "nothing but", "nothing
        # else", "nothing too spicy": a word of degree or a clause)
        r"|nothin(?:g|['\u2019])?\s+(?!(?:but|else|more|less|much|to|like|new|special|fancy"
        r"|serious|wrong|too|very|so|at|of|whatsoever|is|was|will|can|could|would|should|i|we"
        r"|you|that|this|it|and|or|if|for|fits|matches|works)\b))(?=[^\W\d_])",
        "no",
        key=r"\bno\s|\bnothin(?:g|['\u2019])?\s|\bnone\s|\bnobody\s|\bno-one\s",
    ),
    _cue(
        NEGATION_MINUS,
        r"(?<!\S)[-!](?=[^\W\d_]|\")",  # "-bone", "!disc numbers"
        "minus",
        key=r"(?<!\S)[-!]",
    ),
    _cue(
        NEGATION_DISLIKE,
        # (not "it's not that I don't like horror films": a double negation, a liking)
        rf"(?:,\s*)?(?:\b(?:if|when|since|as|because)\s+)?(?<!\bnot\sthat\s)"
        rf"(?:\b(?:you|i|we|they|he|she)|\b{_MY_PEOPLE}|{_FOR_WHOM}who)\s+"
        r"(?:(?:specifically|particularly|really|just|definitely|certainly|also)\s+)?"
        # ("i am not need papers on X", as a learner writes it)
        # ("i not want the bone papers", as a learner writes it)
        rf"(?:(?:{AUX}|am)\s+not|{NT}|dont|never|(?<=\bi\s)not|(?<=\bwe\s)not)\s+(?:really\s+)?"
        # "birds!!! real ones, i dont mean the star constellation", "I do not require material on X"
        # ("i am not needing the vaccine part")
        r"(?:like|love|enjoy|want|need|needing|wanting|require|care\s+(?:for|about|bout|abt)|fancy"
        # ("toddler breakfast ideas?? he won't touch eggs")
        r"|eat|drink|mean|touch|stand|tolerate)\b"
        # "body wash recs, can't stand anything vanilla scented": set off, the subject left out
        rf"|(?:[,;(]\s*|(?<=[\w)\]])[.?!]+\s*|{DASH}\s*)(?:(?:really|just|honestly)\s+)?"
        r"(?:can['\u2019]?t|cannot|can\s+not)\s+(?:stand|tolerate|handle|eat|drink)\b",
        key=r"like|love|enjoy|want|need|require|care|fancy|eat|drink|mean|touch|stand|tolerate"
        r"|handle",
    ),
    _cue(
        NEGATION_DISLIKE,
        # "... ? we're not doing growth hormone so pls leave that out", "im not using steroids":
        # what the one asking has ruled out, set off as a clause of its own
        rf"(?:^|(?<=[,;.?!(])\s*|{DASH}\s*|\b(?:but|and|so)\s+)"
        r"(?:we|i)(?:\s*['\u2019]?(?:re|m)|\s+(?:are|am))\s+not\s+(?:really\s+)?"
        r"(?:doing|using|trying|considering|going\s+(?:for|with)|looking\s+at)\s+"
        # (not a manner or a pronoun: "we're not doing well", "im not doing it right")
        r"(?!(?:well|good|great|badly|bad|ok|okay|fine|enough|so|too|very|much|right|it|that|this"
        r"|them|those|anything|everything)\b)",
        key=r"doing|using|trying|considering|going|looking",
    ),
    _cue(
        NEGATION_DISLIKE,
        # "... ? not interested in X", "but I'm not really interested in X", "ananda - not
        # interested in the nuns' order"
        rf"(?:(?:^|[,;.?!(])\s*|{DASH}\s*"
        r"|\b(?:but|and|although|though|while|whereas)\s+)"
        r"(?:(?:i\s*['\u2019]?m|i\s+am|we\s*['\u2019]?re"
        r"|we\s+are|(?:she|he)(?:\s+is|\s*['\u2019]s)|they(?:\s+are|\s*['\u2019]re))\s+)?"
        r"not\s+(?:really\s+|too\s+|very\s+|that\s+)?(?:(?:interested|intrested|intersted|bothered|concerned)\s+"
        r"(?:in|about|with|by)|a\s+(?:big\s+|huge\s+)?fan\s+of)\b"
        # "The patron isn't interested in lawsuits.", "she isn't bothered about X": a subject of
        # one or two words (a pronoun, or "the/my/our ..." and a noun) opening its sentence
        rf"|(?:(?:^|[,;.?!(])\s*|{DASH}\s*|\b(?:but|and|although|though)\s+)"
        r"(?:(?:she|he|they|it)|(?:the|my|our|your|his|her|their)\s+[\w'\u2019-]+(?:\s+[\w'\u2019-]+)?)\s+"
        r"(?:is\s+not|isn['\u2019]?t|are\s+not|aren['\u2019]?t|(?:does|do)\s+not|doesn['\u2019]?t|don['\u2019]?t)\s+"
        r"(?:really\s+|too\s+|very\s+|that\s+)?(?:(?:interested|intrested|intersted|bothered|concerned)\s+"
        r"(?:in|about|with|by)|care\s+(?:about|for|bout|abt))\b"
        # "I'm not after the fishing regulations", "I'm not looking for X" (not "but not after
        # 1990": the subject must be there)
        rf"|(?:(?:^|[,;.?!(])\s*|{DASH}\s*|\b(?:but|and)\s+)"
        r"(?:i\s*['\u2019]?m|i\s+am|we\s*['\u2019]?re|we\s+are|(?:she|he)(?:\s+is|\s*['\u2019]s)"
        r"|they(?:\s+are|\s*['\u2019]re))\s+not\s+(?:really\s+)?(?:after|looking\s+for"
        # ("... stem cells? I am not asking about trisomy 21 disease models")
        r"|asking\s+(?:about|for)|talking\s+(?:about|abt)"
        # "science museums for my kids, we're not into art galleries"
        r"|(?:that\s+|too\s+|very\s+|so\s+|big\s+)?into)\b"
        # "i'm sick of hearing about eamon ryan", "we are tired of reading about X"
        rf"|(?:(?:^|[,;.?!(])\s*|{DASH}\s*|\b(?:but|and|though|although)\s+)"
        # ("he's sick of spider-man tho": the one the search is for)
        r"(?:(?:ngl|tbh|tbf|honestly|lol)\s+)?"
        r"(?:i\s*['\u2019]?m|i\s+am|we\s*['\u2019]?re|we\s+are|(?:he|she)(?:\s*['\u2019]s|\s+is)"
        r"|they(?:\s*['\u2019]re|\s+are))\s+(?:(?:so\s+|really\s+)?(?:sick|tired)\s+of"
        r"(?:\s+(?:hearing|reading|seeing|watching)(?:\s+about)?)?"
        # "ngl I'm so over sourdough" (not "over the moon", "over 60": a degree word first)
        r"|(?:so|soo+|totally|completely|really|kinda|kind\s+of)\s+over\s+(?!(?:the\s+moon|it)\b)"
        # "ngl im so done w fortnite"
        # (not "she's done with school": finished, a fact)
        r"|(?:(?:so|soo+|totally|completely)\s+|(?<=\bim\s)|(?<=\bi['\u2019]m\s)|(?<=\bi\sam\s)"
        r"|(?<=\bwe['\u2019]re\s)|(?<=\bwe\sare\s))done\s+(?:with|w/|w)(?=\s))\b"
        # a sentence of its own with the subject left out: ". not after the genetics (SOD1 etc)"
        # (a determiner must follow: "not after 1990" is a date)
        rf"|(?:(?<=[\w)\]])[.?!]+\s+|{DASH}\s*)not\s+(?:really\s+)?(?:after|looking\s+for)\s+"
        r"(?=(?:the|any|all|those|that|this|his|her|their|its)\b)"
        # "- not looking for omega-3 / fish oil papers" (a date never follows "looking for")
        rf"|(?:(?<=[\w)\]])[.?!]+\s+|{DASH}\s*)not\s+(?:really\s+)?looking\s+for\b",
        key="interested|intrested|intersted|bothered|concerned|care|after|looking|sick|tired|into"
        "|over|done|fan"
        "|talking"
        "|asking",
    ),
    _cue(
        NEGATION_FRONTED_EXCEPTION,
        # "so I already know all about his movies, tell me what else ...": what one has read
        # is left out; the request follows it
        rf"^\s*(?:(?:so|and|but|ok|okay|well)\b[,\s]*){{0,2}}{_ALREADY}",
        "fronted",
        key="already|tons|loads|lots|plenty|enough|lot|much|stuff|material|books|articles|bits",
    ),
    _cue(
        NEGATION_DISLIKE,
        # "python tutorials, I already know the basics": after the request
        # (also after "because", "though": "... because I have had quite enough of the Incas")
        rf"(?:[,;.?!(]\s*|{DASH}\s*|\b(?:but|and|because|since|though|although)\s+)(?:{_ALREADY}"
        # "though I covered the bomb survivors last season": done before, so left out now
        # (not "we covered that last week": a pronoun for an item named before it)
        r"|(?:i|we)\s+covered\s+(?!(?:that|it|this|those|these|them)\b)(?=[^,;.?!]{1,80}?\s+(?:last\s+(?:season|series|week|month|year|term|time"
        r"|episode)|in\s+(?:a|an|the)\s+(?:previous|earlier|last|other)\s+(?:episode|season|segment"
        r"|lecture|class|piece))\b)"
        # "roman emperors - already did augustus": no subject, as typed
        # (", already read everything by Sanderson", ", already seen the Expanse")
        r"|already\s+(?:covered|did|done\s+with)\s+"
        r"|already\s+(?:read|seen|watched|tried|played|visited|own)\s+"
        r"(?!(?:live|before|it|them|those|these|that|this|twice|once|enough|all|plenty|some|a\s+lot"
        r"|lots)\b)"
        # "my eye doctor already told me all about glaucoma": someone has told them about it
        r"|(?:(?:my|our|the|his|her|their)\s+(?:[\w'\u2019-]+\s+){1,2}|(?:she|he|they)\s+)?"
        r"(?:has\s+|have\s+|had\s+)?already\s+(?:told|explained\s+to|taught)\s+(?:me|us|her|him|them)\s+"
        r"(?:(?:all|everything|plenty|enough)\s+)?(?:about|on)\s+)",
        key="already|tons|loads|lots|plenty|enough|lot|much|told|taught|explained|covered|stuff"
        "|material|books|articles|bits",
    ),
    _cue(
        NEGATION_DISLIKE,
        # "We've done debate formats to death so leave those out": what has been done over and
        # over is left out
        rf"(?:^|(?<=[,;.?!(])\s*|{DASH}\s*|\b(?:but|and|so|because|since)\s+)"
        r"(?:we|i|they)(?:\s*['\u2019]ve|\s+have)\s+(?:already\s+)?(?:done|covered|read|heard)\s+"
        r"(?=[^,;.?!]{1,60}?\s+to\s+death\b)",
        key="death",
    ),
    _cue(
        NEGATION_DISLIKE,
        # "national parks in utah we already did zion and arches": run on after a noun, with an
        # object named (not "the parks we already visited in 2019": a relative clause)
        # (not after a relative: "which I have already read a great deal about")
        r"(?<=[^\W\d_]\s)(?<!\bwhich\s)(?<!\bthat\s)(?<!\bwho\s)(?<!\bwhom\s)"
        r"(?:we|i)(?:\s*['\u2019]ve|\s+have)?\s+already\s+(?:did|done|visited|saw"
        r"|seen|read|tried|watched|played)\s+(?!(?:in|on|at|last|this|before|with|for|to|and|so"
        r"|but|it|them|those|that|these|twice|once|all|together|again|recently|yesterday|today"
        r"|here|there|earlier|lately|too|as|ourselves|myself|or|when|while|because|since|a\s+lot"
        r"|a\s+(?:great|good)\s+deal|lots|plenty|enough|much|about)\b)"
        r"(?=[^\W\d_])",
        key="already",
    ),
    _cue(
        NEGATION_DISLIKE,
        # "gift ideas for my mom (she has a million candles and mugs, so not those)", "my wife is
        # allergic to shellfish so none of that": what someone has or cannot have, then a word
        # pointing back at it
        rf"(?:[,;.?!(]\s*|{DASH}\s*|\b(?:but|and|wait)\s+|^)"
        r"(?:(?:she|he|they|we|i|(?:my|our)\s+[\w'\u2019-]+)\s+(?:already\s+)?|already\s+)"
        r"(?:has|have|had|owns?|(?:is|are|am|['\u2019]s|['\u2019]re|['\u2019]m)\s+allergic\s+to|hates?"
        r"|can['\u2019]?t\s+(?:eat|have|stand|drink))\s+"
        r"(?:(?:a\s+million|so\s+many|too\s+many|plenty\s+of|lots\s+of|tons\s+of|enough)\s+)?"
        r"(?=[^,;.?!()]{1,60}?(?:\s+|,\s*)so\s+(?:not|none\s+of)\s+(?:those|that|them|it|these)\b)",
        key=r"so\s+(?:not|none)",
    ),
    _cue(
        NEGATION_DISLIKE,
        # "supernatural novels, I've read dracula so not that one": what was read is left out
        # ("horror movie marathon ideas?? we did every halloween film last year so not those")
        rf"(?:[,;.?!(]\s*|{DASH}\s*)(?:i|we)(?:(?:\s*['\u2019]ve|\s+have)\s+(?:already\s+)?"
        r"(?:read|seen|watched|done|covered|had|played|tried|visited)|\s+(?:already\s+)?(?:read|saw"
        r"|watched|did|covered|visited|played|tried))\s+"
        # ("I've read all I want about Albert Speer's, so not his": what was read is the item)
        r"(?:(?:all|enough|plenty)\s+(?:(?:i|we)\s+(?:want|need|care)\s+)?(?:to\s+read\s+)?(?:about|on|of)\s+"
        # ("We've played a lot of eurogames and want something different, so please leave those
        # out": how much of it was had)
        r"|(?:(?:a\s+lot|lots|plenty|tons|loads)\s+of|all\s+the|so\s+many)\s+)?"
        r"(?=[^,;.?!]{1,60}?(?:\s+|,\s*)so\s+not\b"
        r"|[^.;?!]{1,80}?(?:\s+|,\s*)so\s+(?:please\s+|pls\s+|just\s+)?(?:leave|skip|drop)\s+"
        r"(?:those|them|that|it|these)\b)",
        key=r"so\s+(?:not|please|pls|just|leave|skip|drop)",
    ),
    _cue(
        NEGATION_WITHOUT,
        # (not an idiom: "made available without charge", "without doubt", "without exception")
        # ("playdough recipe w/out cream of tartar")
        r"(?:(?:,|(?<!\s))\s*\b(?:but|and)\s+)?(?:\bwithout\b|(?<![\w/])w/(?:o|out)\b)"
        r"(?!\s+(?:charge|cost|fee|payment|delay|doubt|a\s+doubt|question|fail|exception|warning"
        r"|notice|end|limit)\b)",
        key="without|w/o",  # "w/out" holds "w/o" too
    ),
    _cue(
        NEGATION_EXCEPTION,
        # "material on any sultanate at all, provided it isn't the Seljuks or the Ottomans"
        r"(?:,\s*|\b)(?:provided|providing|as\s+long\s+as|so\s+long\s+as)\s+(?:that\s+)?"
        r"(?:it|they|he|she|these|those)\s*(?:is\s+not|isn['\u2019]?t|are\s+not|aren['\u2019]?t"
        r"|['\u2019]s\s+not|['\u2019]re\s+not)\b",
        key=r"provided|providing|long",
    ),
    _cue(
        NEGATION_UNRELATED,
        r"(?:(?:,|(?<!\s))\s*\b(?:but|and)\s+)?\b(?:(?:that\s+(?:is|are)\s+)?unrelated\s+to"
        r"|(?:(?:that|which|who)\s+)?(?:(?:has|have|had)\s+)?nothing\s+to\s+do\s+with)\b",
        key="unrelated|nothing",
    ),
    _cue(
        NEGATION_DONT_MENTION,
        rf"(?:(?:,|(?<!\s))\s*\b(?:but|and)\s+)?(?:please\s+)?(?:(?:{AUX})\s+not|{NT}|never)\s+"
        rf"(?={MENTION_VERB}\b)",
        # Every match holds the negation word and the verb after it (the lookahead as in the
        # pattern, whose "\b" binds to the last verb only): without both, this costly pattern
        # need not run.
        key=rf"(?:{_NEGATION_KEY})\s+(?={MENTION_VERB}\b)",
    ),
    _cue(
        NEGATION_BUT_NOT,
        # "though not" only set off by a comma ("real though not testable" joins two predicates)
        r"(?:(?:,\s*)?\b(?:but|and|yet)|,\s*(?:though|although))\s+not\b"
        r"(?!\s+(?:" + _NOT_FOLLOW_EXCEPT + r")\b)(?!\s+" + _ADVERB_LAST + ")",
        key="not",
    ),
    _cue(
        NEGATION_COMMA_NOT,
        # "crispr as an immune defense, not as an editing tool": a role set off is left out
        # (not "not as good as", "not as much")
        # ("dna topoisomerases as enzymes, not as targets for chemo drugs": a plural role, not
        # "not as serious as")
        r",\s*not\b(?:(?=\s+as\s+(?:(?:a|an|the)\s|[a-z]+s\s+(?!as\b)))"
        r"|(?!\s+(?:" + _NOT_FOLLOW_EXCEPT + r")\b))",
        "comma",
        key="not",
    ),
    _cue(
        NEGATION_PREDICATE,  # or NEGATION_COPULA: see verbal_kind()
        # Every match starts with the first letter of "but", "yet", "that", "which", "who", an
        # auxiliary or "never": the lookahead turns every other position away at once.
        r"(?=[abcdhimnstwy])"
        rf"(?:\b(?:but|yet)\s+)?{_RELATIVE}(?:\b(?:{AUX})\s+(?:not|never)\b"
        rf"|\b(?:{NT})|(?:\b(?:{AUX})\s+)?\bnever\b)(?:\s+(?:been|be|being)\b)?"
        rf"(?!\s+(?:{_NOT_FOLLOW_EXCEPT})\b)",
        "verbal",
        key=_NEGATION_KEY,
    ),
    _cue(
        NEGATION_NOT,
        # "whether or not X" asks about X either way: no negation
        # ("not-bad indie coffee spots": a hyphenated compound is one word)
        rf"{_RELATIVE}(?<!\bor\s)(?<!-)\bnot\b(?!-)"
        rf"(?!\s+(?:{_NOT_FOLLOW_EXCEPT})\b)(?!\s+{_ADVERB_LAST})",
        "verbal",
        key="not",
    ),
)


_COPULA = re.compile(
    r"\b(?:is|are|was|were|am|be|been|being|isn['\u2019]?t|aren['\u2019]?t|arn['\u2019]?t\b"
    r"|wasn['\u2019]?t|weren['\u2019]?t)\b",
    re.I,
)


_ATTACHED = re.compile(r"\b(?:that|which|who|but|yet)\b", re.I)
_NEVER = re.compile(r"\bnever\b", re.I)


def verbal_kind(cue_text: str, attached: bool = False) -> str:
    """The cue name of a verbal negation from its matched text.

    A negated copula that describes a noun (``dishes that are not spicy``, ``cars that aren't
    German``, ``... but has never been a member``) excludes a topic (:data:`NEGATION_COPULA`); a
    negated main verb (``did not``, ``never``, ``can't``) states a predicate
    (:data:`NEGATION_PREDICATE`), and so does the copula of a main clause (``CHEK2 is not
    associated with cancer``): a claim, not a constraint. ``attached``: the cue is known to
    describe a noun (a list item under a ``that:`` header)."""
    if not _COPULA.search(cue_text) or _NEVER.search(cue_text):
        return NEGATION_PREDICATE  # "cities that were never convict settlements": their history
    return NEGATION_COPULA if attached or _ATTACHED.search(cue_text) else NEGATION_PREDICATE


_PARTICIPLE = re.compile(
    # "not anything about cars": a pronoun in "-ing", not a participle
    r"(?!(?:during|according|following|pending|notwithstanding|barring|anything|something"
    r"|everything|nothing|thing)\b)"
    r"(?:[^\W\d_]{3,}(?:ed|ing)|used|using|doing|going|being|having|making|taking|getting|known|made|seen|given|taken|shown|written|grown|born|built"
    r"|held|sold|found|won|run|done|kept|left|told|thought|brought|bought|taught|meant|spent"
    r"|sent|lost|paid|chosen|driven|eaten|fallen|forgotten|hidden|spoken|stolen|worn)\b",
    re.I,
)
_LINKED = re.compile(
    r"(?:related|relating|connected|linked|associated|concerned|including|featuring|involving"
    r"|regarding|concerning|starring|set|based)\b",
    re.I,
)
_WORD_AT = re.compile(r"\s*([^\W\d_][\w'\u2019-]*)")
_BARE_NOT_TOPIC = re.compile(
    r"(?:about|on|regarding|concerning|involving|related|relating|including|featuring|from|in"
    r"|by|a|an|the|any|of)\b",
    re.I,
)
_MENTION_START = re.compile(rf"\s*(?:{MENTION_VERB})\b", re.I)
_AUX_WORD = re.compile(rf"\b(?:{AUX})\b", re.I)
#: a lab subject right before "without": "mice without", "mice/cells w/o"
#: people and creatures that have or lack a thing: after them "without X" / "with no X" says
#: what the answers lack, not a topic to leave out (not after places or groups: "cities with no
#: public transport", "bands without a guitarist" read better as exclusions)
_BEARER_END = re.compile(
    r"\b(?:people|persons|patients|pilots|players|athletes|drivers|children|kids|adults|women|men"
    r"|workers|soldiers|kings|queens|emperors|rulers|presidents|writers|authors|artists"
    r"|musicians|singers|actors|actresses|directors|scientists|philosophers|survivors"
    r"|individuals|participants|volunteers|donors|owners|families|species|invertebrates"
    r"|vertebrates|mammals|birds|insects|reptiles|plants)\s+(?:with\s+)?$",
    re.I,
)
#: ... unless a pointer opens the item ("mafia bosses w/o the new york ones")
_POINTER_START = re.compile(
    r"\s*(?:the|those|these|that|this|any(?:one|body|thing)?|anyone|ones?)\b", re.I
)
_LAB_SUBJECT_END = re.compile(
    r"\b(?:mice|mouse|rats?|cells?|animals|zebrafish|flies|worms|yeast|strains?|embryos|neurons"
    r"|organoids|knockouts?)\s*$",
    re.I,
)
#: "signed without the consent of the people's own government": how a thing was done (the
#: answer's manner), not a topic to leave out
_CONSENT_START = re.compile(
    r"\s*(?:the\s+|any\s+|prior\s+|their\s+|his\s+|her\s+|its\s+|parental\s+|official\s+)*"
    r"(?:consent|approval|permission|authori[sz]ation|knowledge|agreement|blessing)\s+of\b",
    re.I,
)
#: a negated verb right before "without" ("you can't see without", "it won't start without")
_NEGATED_VERB_END = re.compile(rf"(?:\b(?:{NT}|cant|wont|not|never)\s+)[a-z]+\s*$", re.I)
#: a verb of getting by, right before "without" ("societies that lived without farming", "how do
#: plants survive without sunlight"): the answers are about the lack, and name what they lack
_LACKING_VERB_END = re.compile(
    r"\b(?:live|lives|lived|living|survive|survives|survived|surviving|cope|copes|coped|coping"
    r"|thrive|thrives|thrived|thriving|get\s+by|got\s+by|getting\s+by|went|go|goes|going|gone)\s*$",
    re.I,
)
#: a relative clause's own verb right before "without" ("aircraft that fly without an engine",
#: "methylation that happens without Dnmt1"): how the answers do what they do, a property; not a
#: copula ("dishes that are without meat") nor a verb with an object of its own
_RELATIVE_VERB_END = re.compile(
    r"\b(?:that|which|who)\s+(?:[^\W\d_]+ly\s+)?"
    r"(?!(?:is|are|was|were|am|be|been|being|but|and|or|yet|one|ones)\b)[^\W\d_]+\s*$",
    re.I,
)
#: a state at a study's start ("pts w/o diabetes at baseline"): who the cohort is, not a topic
_AT_BASELINE = re.compile(
    r"\bat\s+(?:baseline|(?:study\s+)?entry|enrol(?:l)?ment|recruitment|inclusion)\s*$", re.I
)
#: a gene or protein name: a word with a digit or two capitals ("SIRT1", "p53", "PTEN")
_GENE_START = re.compile(
    r"\s*(?:(?:a\s+)?functional\s+|the\s+)?(?:[A-Za-z][\w-]*\d|(?-i:[A-Z]\w*[A-Z]))", re.I
)
#: a verb with its object after "without" ("without losing a game", "without killing the whale",
#: "without doing any serious damage"): how the thing asked for happens, a predicate of the
#: answer, not a topic left out of the passages ("without dieting", "without using eggs" keep
#: their exclusion)
#: an adverb before a gerund after "without" ("without ever losing a game")
_GERUND_LEAD = r"\s*(?:(?:ever|even|really|actually|first|once)\s+)?"
_GERUND_WITH_OBJECT = re.compile(
    # (not a verb of what a text says: "without mentioning the Vatican" leaves the Vatican out)
    rf"{_GERUND_LEAD}(?!(?:any|some|no|every)thing\b)"
    rf"(?!(?:{MENTION_VERB})\b)"
    r"[a-z]{2,}ing\s+(?:a|an|the|any|all|their|his|her|its|my|our|your|them|it|him|us|me|one"
    r"|anything|much|too)\b",
    re.I,
)
#: a gerund whose object is a pronoun and nothing more ("without touching it", "without burning
#: them"): a manner, with no topic to leave out, even in a question
_GERUND_PRONOUN = re.compile(
    rf"{_GERUND_LEAD}[a-z]{{2,}}ing\s+(?:it|them|him|her|us|me)\s*[.?!]*\s*$",
    re.I,
)
#: a question or a request put to the one who answers: its "without using any examples from X",
#: "without making any references to X" tells the answer what to leave out
_ASKS = re.compile(
    r"^\W*(?:what|how|why|where|when|which|who|whom|whose|tell|explain|describe|give|provide|list"
    r"|show|find|is|are|do|does|did|discuss|summari[sz]e|compare)\b"
    r"|\b(?:can|could|would|will)\s+you\b|\bplease\b",
    re.I,
)
#: verbs that say what a piece of writing is about, but what an agent does too ("countries that
#: don't deal with China"): an exclusion only after a word for writing
ABOUT_VERB = r"concern(?:s|ing)?|deal(?:s|ing)?\s+with"
_ABOUT_VERB_START = re.compile(rf"\s*(?:{ABOUT_VERB})\b", re.I)
_WRITING_BEFORE = re.compile(
    r"\b(?:stud(?:y|ies)|papers?|articles?|reports?|trials?|books?|reviews?|research|works?"
    r"|sources?|texts?|passages?|documents?|chapters?|essays?|accounts?|analys[ei]s|ones|those"
    # "anything on the subject so long as it does not concern X": the text asked for
    r"|(?:(?:so|as)\s+long\s+as|provided(?:\s+that)?|if|unless)\s+it|anything|material|literature)"
    # the cue starts at its relative: "studies [that do not concern ...]"
    r"\s*$",
    re.I,
)
# A negation whose kind its cue leaves open: the words after it decide.
_OPEN_KINDS = frozenset({NEGATION_COPULA, NEGATION_BUT_NOT, NEGATION_COMMA_NOT, NEGATION_NOT})
#: the open cues with no verb before them ("but not", ", not"): a word in "-ing" there followed
#: by "or" is a list item ("reading" the town), where after "are not" it is a verb
_SET_OFF = frozenset({NEGATION_BUT_NOT, NEGATION_COMMA_NOT})


def negated_kind(name: str, negated: str, before: str = "", clause: str = "", cue: str = "") -> str:
    """The cue name of a negation given the text it negates.

    After ``not`` (``that are not``, ``but not``, ``, not``), a participle with a complement of
    its own (``not involved in the synthesis``, ``but not raised to the status of an abbey``)
    states a predicate, not a topic: :data:`NEGATION_PREDICATE`. A bare participle or adjective
    (``not crowded``), a passive agent (``not made by Tesla``) and ``not related to X`` keep the
    cue's own name. A bare ``not`` (no auxiliary right before it) excludes a topic before a
    preposition or article (``not about war``), a passive agent or a lone adjective (``dishes not
    spicy``), unless the text ``before`` it holds an auxiliary (``did Subaru not acknowledge``,
    ``is the source not identified``: a question about a predicate). After ``without``, a verb
    with its object (``teams that went the season without losing a game``) states a predicate,
    unless the ``clause`` before the cue asks or requests something (``can you explain it without
    making any references to X``): there it tells the answer what to leave out. A negated verb of
    origin in a relative clause (``cue``: ``bands that didn't come from the uk``) says where the
    answers are from, as ``bands that aren't from the uk`` does: :data:`NEGATION_COPULA`. A
    negated modal before a passive (``arthritis that can't be cured``) says what cannot be done
    to the answers: a predicate, with or without a complement; so does ``without`` right after a
    relative clause's own verb (``aircraft that fly without an engine``), and an adjective of
    how widely something occurs before where (``phospholipids that are not common in
    membranes``).
    """
    if name == NEGATION_PREDICATE and asks_outside(clause + cue + negated):
        return NEGATION_COPULA
    if (
        name == NEGATION_PREDICATE
        and _ATTACHED.search(cue)
        and not _NEVER.search(cue)
        and ORIGIN.match(negated)
        and not _shares_root(negated, before)
    ):
        return NEGATION_COPULA
    if (
        name in (NEGATION_WITHOUT, NEGATION_NO)
        and _BEARER_END.search(before)
        and not _POINTER_START.match(negated)
    ):
        # "pilots with no instrument rating", "people without health insurance": what the
        # answers lack, which the passages on them name ("flying without an instrument rating")
        return NEGATION_PREDICATE
    if name == NEGATION_WITHOUT and _LAB_SUBJECT_END.search(before) and _GENE_START.match(negated):
        # "mice w/o SIRT1 (KO or knockdown)": a knockout, whose papers are about the gene
        return NEGATION_PREDICATE
    if name == NEGATION_WITHOUT and _GERUND_WITH_OBJECT.match(negated) and not _ASKS.search(clause):
        return NEGATION_PREDICATE
    if name == NEGATION_WITHOUT and _GERUND_PRONOUN.match(negated):
        return NEGATION_PREDICATE
    if name == NEGATION_WITHOUT and _AT_BASELINE.search(negated):
        return NEGATION_PREDICATE
    if name == NEGATION_WITHOUT and _CONSENT_START.match(negated):
        return NEGATION_PREDICATE
    if name == NEGATION_WITHOUT and (
        _LACKING_VERB_END.search(before) or _RELATIVE_VERB_END.search(before)
    ):
        return NEGATION_PREDICATE
    if name == NEGATION_WITHOUT and _NEGATED_VERB_END.search(before):
        # "stuff in the night sky you can't see without a telescope": a condition (you need
        # one), not a topic left out
        return NEGATION_PREDICATE
    if name == NEGATION_PREDICATE and (
        _MENTION_START.match(negated)
        or (_ABOUT_VERB_START.match(negated) and _WRITING_BEFORE.search(before))
    ):
        # "dishes that don't contain meat": without meat; "studies which do not concern order
        # entry systems": about something else
        return NEGATION_DONT_MENTION
    if name not in _OPEN_KINDS:
        return name
    if _NO_LONGER.search(negated):
        return NEGATION_PREDICATE  # "constellations that aren't official ones anymore": a change
    first = _WORD_AT.match(negated)
    while first is not None and _HEDGE.fullmatch(first.group(1)):
        first = _WORD_AT.match(negated, first.end())  # "never actually built": "built" decides
    if first is None:
        return name
    word = first.group(1)
    nxt = _WORD_AT.match(negated, first.end())
    if name == NEGATION_NOT:
        # (only its own sentence: "iban check digits how do they work..not the us banks thing")
        if _AUX_WORD.search(_SENTENCE_END.split(before)[-1]):
            return NEGATION_PREDICATE  # "did Subaru not acknowledge"
        if _BARE_NOT_TOPIC.fullmatch(word) or nxt is None:
            return name  # "not about war", "not spicy"
    if (
        name == NEGATION_COPULA
        and _SPREAD.fullmatch(word)
        and nxt is not None
        and nxt.group(1).lower() in _SPREAD_WHERE
    ):
        return NEGATION_PREDICATE  # "phospholipids that are not common in membranes": how far
    if not _PARTICIPLE.fullmatch(word) or _LINKED.fullmatch(word):
        return name
    if name == NEGATION_COPULA and _MODAL_BE.search(cue) and not word.lower().endswith("ing"):
        return NEGATION_PREDICATE  # "arthritis that can't be cured": what cannot be done to it
    if nxt is None or nxt.group(1).lower() == "by":
        return name
    if word.lower().endswith("ing") and _shares_root(nxt.group(1), before):
        return name  # "video games that aren't fighting games": a kind of the answers, named
    if name in _SET_OFF and nxt.group(1).lower() in ("or", "and", "nor"):
        return name  # "castles, but not stirling or edinburgh": items in a list, not a verb
    if _MADE_OF.fullmatch(word) and nxt.group(1).lower() in ("from", "with", "of", "using"):
        return name  # "cheeses that aren't made from cow's milk": what it is made of, left out
    if _MADE_IN.fullmatch(word) and nxt.group(1).lower() == "in":
        return name  # "horror films that weren't made in america": where, as "set in"
    if _NAMED.fullmatch(word) and nxt.group(1).lower() not in _NOT_A_NAME:
        return name  # "Utah national parks not named Zion or Arches": those names left out
    return NEGATION_PREDICATE


#: adjectives of how widely something occurs, before where ("not common in membranes", "not
#: present in every region"): a property of the answers' distribution, which their passages state
_SPREAD = re.compile(
    r"common|present|prevalent|abundant|frequent|widespread|typical|usual|uniform|ubiquitous",
    re.I,
)
_SPREAD_WHERE = frozenset(("in", "among", "at", "within", "across", "throughout"))

#: a negated modal before "be" ("can't be", "could not be", "won't be"): what may or can be done
_MODAL_BE = re.compile(
    r"\b(?:(?:can|could|will|would|should|shall|may|might|must)\s+not"
    r"|(?:can|couldn|won|wouldn|shouldn|mustn)['\u2019]?t|cannot)\s+be\b",
    re.I,
)

#: "which universities aren't in the united states?": a which question whose subject runs
#: to a negated copula and a preposition of place or topic ("in" of a state is none: "not in
#: working condition", "not in use", "not in office")
_ASKS_OUTSIDE = re.compile(
    r"\W*which\s+[^?.,;:!()\[\]]*?\b(?:(?:is|are|was|were)\s+not"
    r"|(?:isn|aren|wasn|weren|arn)['\u2019]?t)\s+(?:(?:actually|really)\s+)?"
    r"(?:in\b(?!\s+(?:working|good|bad|poor|use|service|operation|danger|trouble|favou?r|charge"
    r"|power|office|print|stock|debt|love|need|place|time|order|force|effect)\b)"
    r"|(?:from|about|inside|within)\b)",
    re.I,
)


def asks_outside(text: str) -> bool:
    """Whether ``text`` is a which question that asks for answers not in, from or about
    something ("which universities aren't in the united states?", "which influenza studies
    aren't about the immune response?"): that leaves a place or topic out of the passages, as
    "universities that aren't in the us" does, though the answer is an entity."""
    return _ASKS_OUTSIDE.match(text) is not None


_ROOT = re.compile(r"[^\W\d_]{4,}")


def _shares_root(negated: str, before: str) -> bool:
    """Whether a word of ``negated`` starts as a word of ``before`` does, in its first four letters
    ("japanese noodles that didn't originate in japan": the origin is the contrast asked about,
    not a topic left out)."""
    roots = {w.group()[:4].lower() for w in _ROOT.finditer(before)}
    return any(w.group()[:4].lower() in roots for w in _ROOT.finditer(negated))


#: a verb of origin with its preposition, after a negated auxiliary ("didn't come from")
ORIGIN = re.compile(
    r"\s*(?:originally\s+)?(?:come|came|hail|hails|hailed|originate|originated|stem|stemmed)"
    r"\s+(?=(?:from|in)\b)",
    re.I,
)
_NAMED = re.compile(r"named|called|titled|entitled", re.I)
#: words after "named" that make it a verb of its own ("not named in the report")
_NOT_A_NAME = frozenset(("in", "by", "as", "after", "for", "on", "at", "to", "yet", "until"))


_MADE_OF = re.compile(MADE_OF, re.I)
#: the end of a sentence before a bare "not": a stop, a question or exclamation mark, dots
_SENTENCE_END = re.compile(r"(?<=\w)(?:[.?!]+|\u2026)\s*")
_NO_LONGER = re.compile(r"\b(?:any\s*more|any\s+longer)\b", re.I)
#: adverbs between a negation and the word that decides its kind ("were never actually built")
_HEDGE = re.compile(
    r"actually|really|ever|officially|formally|originally|technically|directly|widely|commonly"
    r"|usually|typically|generally|traditionally|historically|legally|publicly|properly|truly"
    r"|strictly|primarily|mainly|largely|still|yet|even|also",
    re.I,
)
_MADE_IN = re.compile(
    r"made|produced|filmed|shot|manufactured|brewed|grown|built|recorded|printed|located"
    r"|situated|founded|based",
    re.I,
)


NEG_FILLER: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.I)
    for p in (
        r"(?:please\s+)?(?:do\s+not|don't|dont|not)\s+",
        # "She has asked that the Carnegie libraries be left aside": nor is the request
        r"(?:(?:i|we|she|he|they)\s+)?(?:has\s+|have\s+)?(?:asked|requested|said)\s+that\s+(?=\S)",
        # "She would like Aleister Crowley excluded": the wish is no part of the item
        r"(?:i|we|she|he|they)\s*(?:would|['\u2019]d|will)?\s+(?:like|prefer|want)\s+(?=\S)",
        # "bodies that aren't actually police forces": the hedge says nothing of the topic
        r"(?:actually|really|truly|technically|strictly|necessarily)\s+(?=[^\W\d_])",
        r"(?:any\s+)?references?\s+to\s+",
        # "(no relation to Antarctica)": the bond named is no part of the topic
        r"(?:any\s+)?(?:relation|connection|relevance)\s+(?:to|with)\s+",
        # "exclude both the price and the infection risk"
        r"both\s+(?=\S+(?:\s+\S+){0,4}\s+and\s)",
        # "setting aside those in which Napoleon had a hand"
        r"(?:in|with|by|for|of)\s+(?:which|whom)\s+",
        # "any comparison to American felonies"
        r"(?:any\s+)?comparisons?\s+(?:to|with)\s+",
        rf"(?:{MENTION_VERB})\b\s*",
        r"(?:any|all|the|some)?\s*(?:(?:detailed|specific|in-depth|lengthy|further|explicit)\s+)?"
        r"(?:mentions?|discussions?|references?|information|info|details?|content|descriptions?"
        r"|explanations?|coverage|talk|material|data|facts|stories|news|treatments?|accounts?"
        r"|analys[ei]s|passages?|texts?|articles?|papers?|documents?|sources?|pages?|sections?"
        r"|bits?|entries|results)\s+"
        r"(?:of|about|on|regarding|concerning|related\s+to|relating\s+to|pertaining\s+to"
        r"|involving|dealing\s+with|that\s+(?:mentions?|involves?|relates?\s+to))\s+",
        r"(?:anything|everything|something|things|stuff|any|those|ones|information|content)\s+"
        r"(?:(?:that\s+(?:is|are)\s+)?(?:related|relating|pertaining)\s+to|about|regarding"
        r"|concerned\s+with|dealing\s+with|focus(?:ed|ing)\s+on"
        r"|concerning|to\s+do\s+with|involving|on|that\s+(?:mentions?|involves?|discusses?"
        r"|relates?\s+to|concerns?))\s+",
        r"(?:the\s+)?(?:topics?|subjects?)\s+of\s+",
        # "the ones where it is about KRAS mutation"
        r"(?:the\s+)?(?:ones|those|papers|studies|articles)\s+(?:where|in\s+which|that|which)\s+"
        r"(?:it|they)\s*(?:is|are|['\u2019]s|['\u2019]re)\s+(?:about|on|regarding)\s+",
        # "skip anything that's a movie": what it is, named
        r"(?:anything|everything|anyone|anybody|any(?:\s+of\s+them)?)\s+(?:that|which|who)\s*"
        r"(?:['\u2019]s|\s+is|\s+are|\s+was|\s+were)\s+(?:a|an)\s+",
        # "but not anything thai": the pronoun before a modifier says nothing of the topic
        r"(?:anything|everything|something)\s+(?!(?:else|more|less|but|that|which|who)\b)(?=[^\W\d_])",
        # "anything by Asimov", "stuff with nuts": the maker or the ingredient is what is excluded
        r"(?:anything|everything|something|stuff|anyone|anybody|someone|people)\s+"
        r"(?:by|from|with|featuring|starring)\s+",
        # "excluding any that used checkpoint inhibitors"
        r"(?:any|those|ones)\s+(?:that|which|who)\s+(?:used?|involved?|includ(?:e|ed)|tested"
        r"|studied|mention(?:ed)?)\s+",
        # "those in China", "the ones from Spain": what follows says where, and the head is the
        # query's own (negation._borrow_head gives it back: "rivers in China")
        r"(?:the\s+)?(?:those|ones)\s+(?:named|called)\s+",
        # "not named Zion or Arches"
        r"(?:named|called|titled|entitled)\s+(?!(?:in|by|as|after|for|on|at|to)\b)",
        # "anywhere in the us or canada"
        r"(?:anywhere|somewhere)\s+(?=(?:in|on|near|outside|around|within)\b)",
        # "that of the American states", "those born in Britain", "the ones designed for teens"
        r"(?:the\s+)?(?:those|ones|that)\s+(?=(?:in|from|of|by|on|at|about|with|made|set|written|born"
        r"|designed|meant|intended|aimed|developed|targeted|used"
        rf"|directed|based|against|for|over|under|featuring|starring|involving|{LOCATIVE})\b)",
        r"(?:been|being|be)\s+",
        r"(?:how|whether)\s+(?=\w)",
        r"(?:hearing|reading|learning)\s+(?:about|of)\s+",
        # what a thing is made of: "made from cow's milk" -> "cow's milk"
        rf"(?:{MADE_OF})\s+(?:from|with|of|using)\s+",
        # what a work comes from: "based on fairy tales" -> "fairy tales"
        r"(?:based\s+on|adapted\s+from|inspired\s+by)\s+",
        # a passive agent: "made by Tesla" -> "Tesla"
        r"(?:(?:made|produced|manufactured|built|written|directed|created|designed|developed"
        r"|owned|run|sold|published|released|painted|composed|sung|performed|invented)\s+)?by\s+",
    )
)

NEG_ARTICLE = re.compile(
    r"(?:as\s+(?=(?:the|a|an)\s)|all\s+(?=the\s))?(?:the|a|an|any|his|her|its|their|your|either"
    # ("not that operation anaconda military thing")
    # (not a "that" that opens a clause: "other than that it was written by ...")
    r"|(?:that|this)(?!\s+(?:one|ones|which|who|whom|whose|is|was|it|its|he|she|they|their|his|her"
    r"|there|we|i|you|the|a|an)\b))\s+(?=\S)"
)
"""A lower-case article before an excluded item ("without the alcohol"; "as a" of a role, "not
as an editing tool"), no part of what is excluded; case-sensitive, so that a title keeps its
own ("The Hurt Locker")."""

NEG_TAIL = re.compile(
    r"(?:\s+|-)(?:ones?|related|based|focused|oriented|themed|centred|centered|heavy|type"
    r"|types|kind|kinds|stuff|things)\s*$|\s+(?:part|aspect|angle|side\s+of\s+things)\s*$"
    # "outside the alzheimer's context"
    r"|(?<=['\u2019]s)\s+context\s*$"
    r"|\s+(?:themselves|itself|himself|herself|as\s+such)\s*$"
    # "skip the leukemia papers", "no ES cell papers": the kind of text, not the topic left out
    # (not "white papers", "term papers": a kind of text named so; not "taxation of papers")
    r"|(?<!\bwhite)(?<!\bterm)(?<!\bposition)(?<!\bworking)(?<!\btoilet)(?<!\bwall)(?<!\bof)"
    r"(?<!\bon)\s+(?:papers|articles)\s*$"
    # "Not software libraries, obviously."
    r"|,\s*(?:obviously|of\s+course|naturally|clearly)\s*$"
    # "excluding the boston tea party obviously"
    r"|\s+obviously\s*$"
    # "Indian or Buddhist schools at all", "les mis to death", "mobsters n" (before "no ...")
    # (in lower case only: "Amusing Ourselves to Death" is a title)
    r"|\s+at\s+all\s*$|(?-i:\s+to\s+death)\s*$|\s+(?:n|and|or|&|\+)\s*$"
    # "i dont want kasparov in it", "no movies abt it", "not the films about it"
    # (after a plural only: not "scholars who wrote about them")
    r"|\s+in\s+(?:it|them|there)\s*$|(?<=[^\W\d_]s)\s+(?:about|abt|on)\s+it\s*$",
    re.I,
)
"""Words at the end of a negated concept that only point back at the query's own head."""

NEG_ASIDE = re.compile(
    r",\s*(?:as(?!\s+well\b)|since|because|already|i|i['\u2019](?:ve|m|d)|ive|we|we['\u2019](?:ve|re)|which\s+i"
    # "oxford or cambridge, literally everyone went there", "the raiders, everyone knows the
    # raiders"
    r"|literally|every(?:one|body)\s+(?:knows|has|had|already|did|went)"
    # "not the executions in iran, that's too upsetting", "not the opera house, everyone's been"
    r"|that['\u2019]?s|it['\u2019]s|every(?:one|body)['\u2019]?s|they['\u2019]re|(?:they|you)['\u2019]ve"
    # "the Huffington Post deal, that one's been covered to death"; "..., only the secession"
    r"|that\s+one(?:['\u2019]s|\s+(?:is|was|has))|only"
    # "no carpenter, seen those lol"
    r"|(?:seen|read|done|did|covered|had|watched|visited|studied)\s+(?:those|them|that|it)"
    r"|that\s+i|about\s+whom|about\s+which"
    # "..., my grandson already did that part", "..., my teacher said no opera"
    r"|(?:my|our|his|her|their)\s+[\w'\u2019-]+\s+(?:already|has|have|had|did|does|knows|said|says"
    # ("no cats and no dogs, my kid is so bored of them")
    r"|told|is|are|was|were|gets|hates)"
    # "not the physics ones, einstein is literally everywhere already"
    r"|[^,;.?!]{1,40}?\s+already\s*[.!]?\s*$"
    r"|(?:so\s+|and\s+)?(?:please\s+|just\s+)?(?:leave|skip|drop|omit)\s+(?:it|them|him|her|that"
    r"|those)\b"
    # "not musicians, if you please"
    r"|if\s+you\s+please\b"
    # "leave aliskiren aside, separate question"
    r"|(?:a\s+)?(?:separate|seperate|different|another)\s+(?:story|matter|topic|question|issue|subject"
    r"|search)\b"
    # "not the egyptian thebes, wrong country"
    r"|wrong\s+(?:one|ones|country|city|place|person|guy|era|period|century|kind|type|thing)\b"
    # "Julius Caesar excluded, far too easy": why it is left out
    # ("not the W Trek, too crowded", "not Florence, too pricey", "too many tourists")
    r"|(?:(?:far|way|much|a\s+bit|a\s+little|kinda|kind\s+of)\s+)?too\s+(?:[a-z][\w-]*)\b"
    # "leave out the Byzantine emperors, he's read those"
    r"|(?:he|she)['\u2019]s\s+(?:already\s+)?(?:read|seen|done|covered|had|got)\b"
    # "Anything except Lego, she has enough of it", "not dinosaurs, he knows them all"
    # "I don't need the HIV envelope glycan ones, there are too much"
    r"|there(?:['\u2019]s|\s+(?:is|are))\s+(?:(?:way|far)\s+)?(?:too|so)\s+(?:much|many)\b"
    r"|(?:he|she|they)\s+(?:already\s+)?(?:has|have|had|knows?|owns?|hates?|dislikes?)\s+"
    r"(?:enough|plenty|lots|loads|all|them|it|those|that)\b"
    # "no war ones, she's 9"
    r"|(?:he|she)['\u2019]s\s+(?:only\s+)?\d+"
    # "no aleister crowley, he gives me the creeps"
    r"|(?:he|she|it|they)\s+(?:gives?|makes?|bores?|creeps?|annoys?|scares?|freaks?)\s+(?:me|us)\b"
    # "deforestation side, seen enough of", "not frankenstein either, they just did it"
    r"|(?:seen|read|heard|had)\s+enough\b|they\s+(?:just|already)\s+(?:did|read|covered|saw|had|studied)\b"
    # ", folks have heard enough about the dismissal"
    r"|(?:folks|people|everyone|everybody|viewers|readers|listeners|audiences?)\s+(?:have|has|['\u2019]ve)"
    r"\s+(?:heard|seen|read|had)\b"
    # ", so not him", ", spare me her"
    r"|(?:so\s+)?not\s+(?:him|her|them|that|it|those)\b|spare\s+(?:me|us)\s+(?:him|her|them|that|it)\b)\b"
    # "tumour viruses like Burkitt's lymphoma that I can set those aside"
    r"|\s+that\s+(?:i|we)\s+(?:can|could|will|would|may)\b"
    # "we already did almonds so pass on those"
    r"|\s+so\s+(?:please\s+|pls\s+|plz\s+)?(?:pass\s+on|skip|leave|drop)\b"
    # "the bomb survivors last season so I'd rather leave them out", "... in a previous episode"
    r"|\s+(?:last|this|next)\s+(?:season|series|week|month|year|term|time|episode)\b"
    r"|\s+in\s+(?:a|an|the)\s+(?:previous|earlier|last|other)\s+(?:episode|season|segment|lecture|class"
    r"|piece)\b"
    # "the tsunami side of things because we have a separate episode planned", "the prion angle
    # since that's been done", "skin cancer pls im scared enough already"
    r"|\s+since\s+(?:that|it|those|they|these)(?:['\u2019](?:s|ve|re)|\s+(?:has|have|was|were|is|are))\b"
    r"|\s+(?:pls|plz|please)\s+(?=[^\W\d_])"
    # "not winnie the pooh theyve done shepard to death"
    r"|\s+(?:they|we|you)\s*(?:['\u2019]?ve|\s+have)\s+(?:already\s+)?(?:done|covered|seen|read|had)\b"
    # "not rihanna i know her stuff already"
    r"|\s+(?:i|we)\s+(?:know|knew|read|saw|did|covered)\s+[^,;.?!]{1,40}?\s+already\b"
    r"|\s+(?:because|since|cos|coz|cuz)\s+(?:we|i)\s+(?:have|['\u2019]ve|already|will|did|had|covered|saw"
    r"|read|know|knew)\b"
    # "the billy elliot musical my kid already saw it", "lord of the flies we already read those":
    # no comma
    r"|\s+(?:(?:because|since|as|cos|coz|cuz)\s+)?(?:we|i)(?:\s*['\u2019]ve|\s+have)?\s+already\s+"
    r"(?:read|saw|seen|did|done|covered|know)\b"
    r"|\s+(?:my|our)\s+[\w'\u2019-]+\s+already\s+(?:saw|seen|did|read|has|had|knows|knew|went)\b"
    # a clause after the item that ends on a pronoun pointing back at it ("Notion, IT blocks
    # it", "cilantro, my wife hates it")
    # (a subject and a verb in -s: not "relics, sainthood or schools named after him")
    r"|,\s*(?!(?:or|and|nor)\b)(?:[\w'\u2019-]+\s+){1,2}[a-z]+s\s+(?:it|them|him|her)\s*[.!]?\s*$"
    # a comment run on after the item with no comma: "Serial lol everyone recs that one",
    # "bourbon street it's way too loud", "cable knit ones they're too hard for me", "world war
    # two i'm so sick of it", "videos i hate watching videos", "catan and ticket to ride we own
    # both", "the expanse and BSG so those are out", "hondas my brother had a bad one"
    r"|\s+(?:(?:lol|lmao|haha|ngl)\b(?!\s*\))"
    r"|so\s+(?:not|none\s+of)(?:\s+(?:those|that|them|it|these)\b|\s*$)"
    r"|every(?:one|body|1)\s+(?:always\s+)?(?:recs?|recommends?|suggests?|says|knows|loves"
    r"|picks)\b"
    r"|(?:it|they|that)\s*(?:['\u2019](?:s|re)|\s+(?:is|are))\s+"
    r"(?:(?:way|far|much|just|so|really|kinda)\s+)?too\s"
    r"|i(?:\s*['\u2019]?m|\s+am)\s+(?:so\s+|really\s+)?(?:sick|tired|bored)\s+of\b"
    # (the verb in lower case: not the title "10 Things I Hate About You")
    r"|(?-i:[iI]\s+(?:really\s+)?(?:hate|can['\u2019]?t\s+stand|despise))\b"
    r"|(?:we|i)\s+(?:already\s+)?own(?:\s+(?:both|them|it|all|those|that|one)\b|\s*$)"
    r"|(?:so\s+)?(?:those|that(?:\s+one)?|they|it)\s+(?:are|is)\s+out\b"
    r"|so\s+(?:those|that(?:\s+one)?|they|it)\s+(?:doesn['\u2019]?t|don['\u2019]?t|does\s+not|do\s+not"
    r"|won['\u2019]?t)\s+count\b"
    r"|my\s+[\w'\u2019-]+\s+(?:had|has|got|owned|owns)\s+(?:a|an|one|the)\s)"
    # "glaucoma so not that": no comma
    r"|\s+so\s+not\s+(?:him|her|them|that|it|those)\b"
    # (its pronoun already read as a relative one and cut: "glaucoma so not")
    r"|\s+so\s+not\s*$",
    re.I,
)
"""A comment after an excluded concept, no part of it: ``..., already revised those``,
``..., as I have read plenty about those``, ``..., so leave him out``."""


LEAD_QUESTION = re.compile(
    r"^(?:(?:what|which|who)\s+(?:are|is|were|was)\s+(?:some\s+)?(?:of\s+)?(?:the\s+)?"
    r"|(?:what|which)\s+(?=\w)|(?:find|list|name|show\s+me|give\s+me|tell\s+me\s+about)\s+"
    r"(?:some\s+|all\s+|the\s+)?)",
    re.I,
)


_HELLO = r"(?:(?:hey|hi|hello|ok|okay)\s*[,!]?\s+)?"  # "hey, can you ..."
_ASK = r"(?:can|could|would|will)\s+you\s+"
_FETCH = r"pull\s+up|look\s+up|find|fetch|show|give|get|list|search\s+for"

FRAME = re.compile(
    r"^\s*(?:(?:good\s+(?:morning|afternoon|evening)|hello|hi|hey|greetings)\s*[.,!]\s*)?"
    r"(?:(?P<fact>(?:is|isn['\u2019]t)\s+it\s+(?:true|the\s+case|correct|a\s+fact)\s+that)"
    r"|(?:please\s+)?(?:find|show|give|get|retrieve|search\s+for)\s+(?:me\s+)?"
    r"(?:(?:a|an|the|some|any|all)\s+)?(?:passages?|documents?|texts?|articles?|pages?|abstracts?"
    r"|studies|papers?|material|literature|research"
    r"|paragraphs?|information)\s+(?:about|on|describing|discussing|regarding|concerning"
    r"|that\s+(?:describes?|discuss(?:es)?|mentions?|is\s+about|are\s+about))"
    # "hey, can you pull up info on", "could you please find me some articles about"
    rf"|{_HELLO}(?:{_ASK})?(?:please\s+|kindly\s+)?(?:dig\s+up|{_FETCH})"
    r"\s+(?:me\s+)?(?:(?:some|any|all|the)\s+)?(?:info|information|stuff|articles|passages|papers"
    r"|documents|results|pages)\s+(?:on|about|regarding|concerning|for)"
    rf"|{_HELLO}{_ASK}(?:please\s+|kindly\s+)?(?:tell\s+me\s+about|{_FETCH})(?:\s+me)?"
    r"|claim\s*:"
    # "writing an essay on the pacific war in ww2 - ...": what the writer is at, then the topic
    r"|(?:(?:i\s*['\u2019]?m|i\s+am|we\s*['\u2019]?re|we\s+are)\s+)?(?:writing|doing|preparing"
    r"|working\s+on)\s+(?:a|an|my|our)\s+(?:(?:short|school|uni|college|history|research)\s+)?"
    r"(?:essay|paper|report|article|thesis|dissertation|presentation|project|piece|talk|lecture)"
    r"\s+(?:on|about)"
    # a mail's or a ticket's subject line: "Re: Q3 vendor contracts", "Quick q – dog food brands"
    r"|(?:re|fw|fwd|request|query|question|quick\s+q(?:uestion)?|follow[\s-]?up)"
    r"(?:\s*:|\s+[-\u2013\u2014]+)"
    r"|(?:i\s*(?:['\u2019]m|\s+am)\s+(?:looking\s+for|researching|studying"
    r"|reading\s+up\s+on|interested\s+in|curious\s+about)"
    r"|i\s+(?:would|should|'d)\s+be\s+(?:grateful|glad|pleased|obliged)\s+(?:for|of)"
    # "I seek accounts of religious persecution"
    r"|i\s+(?:seek|am\s+seeking|['\u2019]m\s+seeking)"
    r"|i\s+(?:would|should)\s+like\s+to\s+(?:learn|know|read)(?:\s+(?:about|of))?"
    r"|(?:please\s+)?(?:show|give|get|find)\s+me"
    # "Please find nonprofit organisations", "I search studies on X", "I'm searching for X"
    r"|please\s+(?:find|locate|look\s+up|search\s+for)"
    r"|i\s*(?:['\u2019]m|\s+am)?\s+search(?:ing)?(?:\s+(?:for|about|on))?"
    r"|i\s*(?:(?:['\u2019]d|\s+would)\s+like|\s+want|\s+need)"
    r"(?:\s+to\s+(?:find|see|read|know\s+about|learn\s+about))?"
    # a request passed on: "A patron wants material on", "my boss is looking for", "Patron
    # asking for reviews of the evidence on"
    r"|(?:(?:a|the|my|our|one)\s+)?(?:patron|client|customer|user|student|reader|visitor"
    r"|colleague|friend|boss|teacher|manager)\s+(?:wants|needs|would\s+like"
    r"|(?:is\s+)?(?:after|looking\s+for|asking\s+(?:for|about)|searching\s+for)|asks\s+(?:for|about))"
    r"(?:\s+to\s+(?:find|see|read|know|learn)(?:\s+about)?)?"
    r"(?:\s+(?:some\s+|any\s+)?(?:reviews?|overviews?|accounts?)\s+of\s+the\s+evidence"
    r"\s+(?:on|about|for))?)"
    r"(?:\s+(?:some\s+|any\s+)?(?:information|informations|info|infos|papers|articles|passages|documents|texts"
    r"|abstracts|material|studies|research|literature|sources|accounts|reports)"
    r"\s+(?:on|about|regarding|concerning|of)|\s+a\s+list\s+of)?)\s+",
    re.I,
)
"""A frame around the query proper: ``Is it true that``, ``Find a passage about``, ``I need
information on``."""

POLITE_TAIL = re.compile(
    r"\b(?:thanks|thank\s+you|thx|cheers|please|pls|ty)[\s.!]*$"
    r"|,?\s*\bif\s+(?:you|u)\s+(?:don['\u2019]?t|do\s+not|dont)\s+mind[\s.!]*$"
    r"|,?\s*\bif\s+you\s+please[\s.!]*$"
    r"|(?<=[.?!])\s+(?:i\s+(?:would|should|'d)\s+be\s+(?:much\s+|very\s+|most\s+)?"
    r"(?:obliged|grateful)|many\s+thanks|thanks\s+in\s+advance)[^.?!]{0,30}[.!]?\s*$",
    re.I,
)
"""Politeness after the query proper: ``... besides bach? thanks``."""

#: a laugh typed after a word ("not nascar lol, ..."): a chat word of its own
LAUGH = r"lol|lmao|haha+|ugh"
CHAT_TAIL = re.compile(
    rf"(?:\s+(?:{LAUGH}|pls|plz|thx|thanks|tbh|imo|tho|though|fr|frfr|ngl|(?-i:ok|okay)))+\s*$",
    re.I,
)
"""Chat words after an excluded item, no part of it (``not the astros lol``); the query's own
sign-off is :data:`POLITE_TAIL`'s."""


def lead_stripped(v: View) -> View:
    m = LEAD_QUESTION.match(v.text)
    if m and has_content(v.text[m.end() :]):
        return v.cut(m.end(), len(v.text))
    return v
