## L = translation_lexicon ()
## The word lists of attn_corpus_translation.  Every French noun starts with a
## consonant (no elision of le/la) and every adjective is one French places
## after the noun.
##   L.nouns:  en, en_pl, fr, fr_pl (1×N cellstr), gender (1×N: 1 m, 2 f)
##   L.adj:    en (1×A cellstr), fr (A×4 cellstr: ms fs mp fp)
##   L.verbs, L.intrans: en_s, en_p, fr_s, fr_p (singular / plural subject)
##   L.preps:  en, fr
function L = translation_lexicon ()
  ## english, english plural, french, french plural, gender
  nouns = {
    "cat",      "cats",      "chat",     "chats",     1
    "dog",      "dogs",      "chien",    "chiens",    1
    "horse",    "horses",    "cheval",   "chevaux",   1
    "book",     "books",     "livre",    "livres",    1
    "boat",     "boats",     "bateau",   "bateaux",   1
    "garden",   "gardens",   "jardin",   "jardins",   1
    "truck",    "trucks",    "camion",   "camions",   1
    "rabbit",   "rabbits",   "lapin",    "lapins",    1
    "pen",      "pens",      "stylo",    "stylos",    1
    "desk",     "desks",     "bureau",   "bureaux",   1
    "duck",     "ducks",     "canard",   "canards",   1
    "wolf",     "wolves",    "loup",     "loups",     1
    "fox",      "foxes",     "renard",   "renards",   1
    "monkey",   "monkeys",   "singe",    "singes",    1
    "tiger",    "tigers",    "tigre",    "tigres",    1
    "train",    "trains",    "train",    "trains",    1
    "coat",     "coats",     "manteau",  "manteaux",  1
    "hat",      "hats",      "chapeau",  "chapeaux",  1
    "bag",      "bags",      "sac",      "sacs",      1
    "wall",     "walls",     "mur",      "murs",      1
    "bridge",   "bridges",   "pont",     "ponts",     1
    "cloud",    "clouds",    "nuage",    "nuages",    1
    "knife",    "knives",    "couteau",  "couteaux",  1
    "glass",    "glasses",   "verre",    "verres",    1
    "basket",   "baskets",   "panier",   "paniers",   1
    "table",    "tables",    "table",    "tables",    2
    "house",    "houses",    "maison",   "maisons",   2
    "car",      "cars",      "voiture",  "voitures",  2
    "flower",   "flowers",   "fleur",    "fleurs",    2
    "chair",    "chairs",    "chaise",   "chaises",   2
    "door",     "doors",     "porte",    "portes",    2
    "lamp",     "lamps",     "lampe",    "lampes",    2
    "apple",    "apples",    "pomme",    "pommes",    2
    "dress",    "dresses",   "robe",     "robes",     2
    "shirt",    "shirts",    "chemise",  "chemises",  2
    "cow",      "cows",      "vache",    "vaches",    2
    "mouse",    "mice",      "souris",   "souris",    2
    "turtle",   "turtles",   "tortue",   "tortues",   2
    "hen",      "hens",      "poule",    "poules",    2
    "giraffe",  "giraffes",  "girafe",   "girafes",   2
    "whale",    "whales",    "baleine",  "baleines",  2
    "road",     "roads",     "route",    "routes",    2
    "mountain", "mountains", "montagne", "montagnes", 2
    "cup",      "cups",      "tasse",    "tasses",    2
    "bottle",   "bottles",   "bouteille", "bouteilles", 2
    "letter",   "letters",   "lettre",   "lettres",   2
    "map",      "maps",      "carte",    "cartes",    2
    "town",     "towns",     "ville",    "villes",    2
    "jacket",   "jackets",   "veste",    "vestes",    2
    "suitcase", "suitcases", "valise",   "valises",   2
    "candle",   "candles",   "bougie",   "bougies",   2
  };
  L.nouns = struct ("en", {nouns(:,1)'}, "en_pl", {nouns(:,2)'},
                    "fr", {nouns(:,3)'}, "fr_pl", {nouns(:,4)'},
                    "gender", cell2mat (nouns(:,5))');

  ## english, french masculine/feminine singular, masculine/feminine plural
  adj = {
    "black",   "noir",    "noire",    "noirs",    "noires"
    "white",   "blanc",   "blanche",  "blancs",   "blanches"
    "red",     "rouge",   "rouge",    "rouges",   "rouges"
    "green",   "vert",    "verte",    "verts",    "vertes"
    "blue",    "bleu",    "bleue",    "bleus",    "bleues"
    "grey",    "gris",    "grise",    "gris",     "grises"
    "yellow",  "jaune",   "jaune",    "jaunes",   "jaunes"
    "brown",   "brun",    "brune",    "bruns",    "brunes"
    "round",   "rond",    "ronde",    "ronds",    "rondes"
    "heavy",   "lourd",   "lourde",   "lourds",   "lourdes"
    "hot",     "chaud",   "chaude",   "chauds",   "chaudes"
    "cold",    "froid",   "froide",   "froids",   "froides"
    "clean",   "propre",  "propre",   "propres",  "propres"
    "dirty",   "sale",    "sale",     "sales",    "sales"
    "fast",    "rapide",  "rapide",   "rapides",  "rapides"
    "slow",    "lent",    "lente",    "lents",    "lentes"
    "happy",   "heureux", "heureuse", "heureux",  "heureuses"
    "sad",     "triste",  "triste",   "tristes",  "tristes"
    "calm",    "calme",   "calme",    "calmes",   "calmes"
    "strong",  "fort",    "forte",    "forts",    "fortes"
    "shy",     "timide",  "timide",   "timides",  "timides"
    "curious", "curieux", "curieuse", "curieux",  "curieuses"
    "soft",    "doux",    "douce",    "doux",     "douces"
    "new",     "neuf",    "neuve",    "neufs",    "neuves"
    "empty",   "vide",    "vide",     "vides",    "vides"
    "full",    "plein",   "pleine",   "pleins",   "pleines"
    "wide",    "large",   "large",    "larges",   "larges"
    "noisy",   "bruyant", "bruyante", "bruyants", "bruyantes"
    "kind",    "gentil",  "gentille", "gentils",  "gentilles"
    "wild",    "sauvage", "sauvage",  "sauvages", "sauvages"
    "modern",  "moderne", "moderne",  "modernes", "modernes"
    "broken",  "cassé",   "cassée",   "cassés",   "cassées"
    "famous",  "célèbre", "célèbre",  "célèbres", "célèbres"
    "tired",   "fatigué", "fatiguée", "fatigués", "fatiguées"
  };
  L.adj = struct ("en", {adj(:,1)'}, "fr", {adj(:,2:5)});

  ## transitive: english singular/plural subject, french singular/plural
  verbs = {
    "sees",     "see",     "voit",     "voient"
    "likes",    "like",    "aime",     "aiment"
    "follows",  "follow",  "suit",     "suivent"
    "finds",    "find",    "trouve",   "trouvent"
    "watches",  "watch",   "regarde",  "regardent"
    "pushes",   "push",    "pousse",   "poussent"
    "pulls",    "pull",    "tire",     "tirent"
    "wants",    "want",    "veut",     "veulent"
    "has",      "have",    "a",        "ont"
    "touches",  "touch",   "touche",   "touchent"
    "chases",   "chase",   "chasse",   "chassent"
    "holds",    "hold",    "tient",    "tiennent"
  };
  L.verbs = struct ("en_s", {verbs(:,1)'}, "en_p", {verbs(:,2)'},
                    "fr_s", {verbs(:,3)'}, "fr_p", {verbs(:,4)'});
  intrans = {
    "sleeps",   "sleep",   "dort",     "dorment"
    "runs",     "run",     "court",    "courent"
    "waits",    "wait",    "attend",   "attendent"
    "stays",    "stay",    "reste",    "restent"
    "plays",    "play",    "joue",     "jouent"
    "walks",    "walk",    "marche",   "marchent"
  };
  L.intrans = struct ("en_s", {intrans(:,1)'}, "en_p", {intrans(:,2)'},
                      "fr_s", {intrans(:,3)'}, "fr_p", {intrans(:,4)'});
  L.preps = struct ("en", {{"on", "under", "in", "with", "without", "for", "towards"}},
                    "fr", {{"sur", "sous", "dans", "avec", "sans", "pour", "vers"}});
endfunction
