/**
 * Names the fact reader knows the kind of (facts.rules.tools.ts): programming languages, code
 * editors, coffee and tea drinks, ways to get to work, car makes. A value of a closed class says
 * which attribute a sentence speaks of whatever its verb ("codes in Neovim", "all in on Kotlin",
 * "orders a cortado"), where a sentence encoder mostly sees the sentence's shape and calls
 * "I switched to Rust" an editor. Written from general knowledge of each class, not from any
 * benchmark's wordings; open classes (dishes, bands, cities) are left to the patterns and the
 * classifier.
 */

const list = (s: string) =>
  s
    .split('|')
    .map((x) => x.trim())
    .filter(Boolean);

/** Case-sensitive where a lower-case spelling is a common word ("go", "swift", "rust"). */
export const LANGUAGES = list(`
  Python|JavaScript|TypeScript|Java|Kotlin|Scala|Groovy|Clojure|Go|Golang|Rust|C\\+\\+|C#|F#|C|Swift|
  Objective-C|Ruby|PHP|Perl|Elixir|Erlang|Haskell|OCaml|Elm|Dart|Julia|R|MATLAB|Lua|Zig|Nim|Crystal|
  Fortran|COBOL|Lisp|Common Lisp|Scheme|Racket|Prolog|Pascal|Delphi|Visual Basic|VB\\.NET|Assembly|
  Solidity|Bash|PowerShell|SQL|Gleam|Mojo|Odin|Ada|Smalltalk|Tcl|CoffeeScript|PureScript|ReScript|
  ReasonML|Idris|Agda|Lean|Coq|Haxe|Apex|ABAP|SAS|Stata|Verilog|VHDL`);

export const EDITORS = list(`
  VS Code|VSCode|Visual Studio Code|Visual Studio|Vim|Neovim|NeoVim|nvim|Emacs|Doom Emacs|Spacemacs|
  Helix|Zed|Sublime Text|Sublime|Atom|Kakoune|Nano|IntelliJ IDEA|IntelliJ|PyCharm|WebStorm|GoLand|
  CLion|Rider|RubyMine|PhpStorm|DataGrip|RustRover|Fleet|Android Studio|Xcode|Eclipse|NetBeans|
  Notepad\\+\\+|TextMate|BBEdit|Cursor|Windsurf|Brackets|Geany|gedit|Lapce|Jupyter|
  JupyterLab|RStudio|Spyder|Code::Blocks|Qt Creator|Replit`);

/** Coffee, tea and the like, folded to one spelling. */
export const DRINKS: Record<string, string> = Object.fromEntries(
  list(`
  espresso|double espresso|ristretto|lungo|americano|long black|short black|cappuccino|latte|caffe latte|
  flat white|cortado|macchiato|latte macchiato|mocha|cafe mocha|affogato|cafe au lait|cafe con leche|
  cold brew|iced coffee|iced latte|filter coffee|drip coffee|pour over|pour-over|french press|
  nitro cold brew|frappuccino|frappe|irish coffee|turkish coffee|piccolo|gibraltar|
  matcha|matcha latte|chai|chai latte|dirty chai|green tea|black tea|earl grey|english breakfast|
  oolong|rooibos|herbal tea|mint tea|peppermint tea|chamomile|hojicha|yerba mate|kombucha|
  hot chocolate|golden milk|bubble tea|boba`).map((d) => [d, d.replace(/-/g, ' ')]),
);

/** Ways to get to work, folded ("bicycle" → bike, "on foot" → foot), in the reader's form (no hyphens). */
export const COMMUTE_MODES: Record<string, string> = {
  bus: 'bus',
  tram: 'tram',
  streetcar: 'tram',
  train: 'train',
  'commuter train': 'train',
  subway: 'subway',
  metro: 'subway',
  underground: 'subway',
  tube: 'subway',
  'u-bahn': 'subway',
  's-bahn': 'train',
  bike: 'bike',
  bicycle: 'bike',
  'e-bike': 'e bike',
  ebike: 'e bike',
  'e-scooter': 'e scooter',
  scooter: 'scooter',
  motorbike: 'motorbike',
  motorcycle: 'motorbike',
  moped: 'moped',
  car: 'car',
  carpool: 'carpool',
  taxi: 'taxi',
  ferry: 'ferry',
  boat: 'ferry',
  foot: 'foot',
  walking: 'foot',
  skateboard: 'skateboard',
};

export const CAR_MAKES = list(`
  Toyota|Honda|Tesla|Volkswagen|VW|BMW|Audi|Mercedes|Mercedes-Benz|Ford|Kia|Hyundai|Skoda|Škoda|Volvo|
  Subaru|Mazda|Nissan|Fiat|Peugeot|Renault|Citroen|Citroën|Mini|Jeep|Chevrolet|Chevy|Polestar|Porsche|
  Lexus|Dacia|Seat|SEAT|Cupra|Opel|Vauxhall|Rivian|Lucid|BYD|MG|Suzuki|Mitsubishi|Jaguar|Land Rover|
  Range Rover|Alfa Romeo|Lancia|Ferrari|Lamborghini|Maserati|Bentley|Rolls-Royce|Aston Martin|
  Genesis|Infiniti|Acura|Cadillac|Buick|GMC|Dodge|Ram|Chrysler|Lincoln|Saab|Lada|Tata|NIO|
  XPeng|Zeekr`);

/**
 * Car models people name without their make ("my Golf", "driving the Civic"), capitalised as
 * written; models that are common words or other names as well ("Focus", "Leaf", "Jazz", "Swift",
 * "Cooper", "Discovery") are left out, as are the makes "Smart" and "DS" ("a Smart TV").
 */
export const CAR_MODELS = list(`
  Golf|Polo|Passat|Tiguan|Touran|Arteon|ID\\.3|ID\\.4|ID\\.Buzz|Civic|Accord|CR-V|HR-V|Corolla|Camry|Prius|
  Yaris|RAV4|Auris|Aygo|Hilux|Land Cruiser|Model 3|Model S|Model X|Model Y|Cybertruck|Octavia|Fabia|Enyaq|
  Kodiaq|Karoq|Fiesta|Mondeo|Kuga|F-150|Clio|Megane|Mégane|Captur|Twingo|Qashqai|Juke|Micra|Altima|
  Outback|Forester|Impreza|Crosstrek|Miata|MX-5|CX-5|CX-30|Ioniq|Ioniq 5|Kona|Tucson|Elantra|Niro|
  Sportage|Ceed|Picanto|EV6|Astra|Corsa|Insignia|Cayenne|Macan|Taycan|Wrangler|XC40|XC60|XC90|
  Sprinter|Punto|Zafira|Sandero|Corvette|Camaro|Tacoma|Tundra|Highlander|Pathfinder|Outlander`);

/** Regex alternation of names, longest first (so "Sublime Text" wins over "Sublime"). */
export const alternation = (names: string[]) =>
  [...names].sort((a, b) => b.replace(/\\/g, '').length - a.replace(/\\/g, '').length).join('|');
