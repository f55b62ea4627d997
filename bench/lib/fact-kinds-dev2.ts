/**
 * A third, independent set of wordings of the fact-update benchmark (dev2): written without sight
 * of the dev and heldout wordings or the detector's examples, to steer detector changes when dev
 * is saturated.
 */
import { lines, type Wording } from './fact-template.ts';

export const DEV2: Record<string, Wording> = {
  city: {
    first: lines(`
      I live in {v}.
      My apartment is in {v}.
      Home for me is {v}.
      I'm based in {v}.
      {name} lives in {v}.
      {name} is based in {v} and likes it there.
      Quick context: I'm in {v}, so keep the time zone in mind.
      The rent in {v} is eating half my salary.
    `),
    update: lines(`
      I moved to {v} last month.
      Just relocated from {prev} to {v}.
      These days I live in {v}.
      I'm no longer in {prev}; home is {v} now.
      Finally signed the lease on a flat in {v}!
      The movers dropped the last boxes at my new place in {v} this morning.
      Registered at the town hall in {v} today, so it's official.
      Still getting lost on the walk home here in {v}.
      Got a library card in {v}, feels like I actually live here now.
      {name} packed up and moved to {v} in the spring.
      First winter in {v} and I already miss the weather in {prev}.
      My new neighbours in {v} brought over a cake to welcome us.
      Sorted out my new address in {v} with the bank today.
    `),
    current: lines(`
      Where do I live?
      Which city am I in these days?
      Where is {name} living now?
      What city is {name} based in?
      What city should I put on my address form right now?
    `),
    past: lines(`
      Where did I live in {when}?
      Which city was {name} based in during {when}?
      What city was home for me back in {when}?
    `),
    distract: lines(`
      Helped {rel} move into a flat in {other} this weekend.
      I grew up in {other} but left when I was eighteen.
      Thinking about moving to {other} someday, maybe after retirement.
      Spent a long weekend in {other}; lovely city for a visit.
      Watched a documentary about the history of {other}.
      Got a postcard from {rel}, who lives in {other}.
      Had a layover in {other} on the way home from the conference.
      If I could live anywhere, it would probably be {other}.
    `),
  },
  partner: {
    first: lines(`
      My partner is {v}.
      I'm in a relationship with {v}.
      {v} and I have been together for a few years.
      I live with my partner, {v}.
      {name}'s partner is called {v}.
      {name} and {v} are a couple.
      My partner {v} does most of the cooking at home.
      Need a birthday present idea for my partner, {v}.
    `),
    update: lines(`
      I'm seeing someone new: {v}.
      After {prev} and I split, I started dating {v}.
      My partner these days is {v}.
      I'm with {v} now.
      {v} and I just celebrated three months together!
      {v} officially met my parents on Sunday.
      Our first trip as a couple: {v} and I are off to the coast on Friday.
      Moved in with {v} last weekend, so many duplicate mugs.
      {v} left a toothbrush at my place, so I guess it's serious.
      {name} has been dating {v} since the summer.
      Changed my relationship status: it's {v} now, not {prev}.
      Third date with {v} went even better than the second.
      Introduced {v} to my friends last night and it went great.
    `),
    negation: lines(`
      {prev} and I broke up.
      I'm not with {prev} anymore.
      Single again since {prev} and I called it quits.
      {name} and {prev} have separated.
      It's over with {prev}; I'm taking some time on my own.
    `),
    current: lines(`
      Who is my partner?
      Who am I dating?
      Who is {name} seeing at the moment?
      What's my partner's name?
      Is {name} in a relationship, and with whom?
    `),
    past: lines(`
      Who was I dating in {when}?
      Who was {name}'s partner in {when}?
      Who was I with back in {when}?
    `),
    distract: lines(`
      Met the partner of {rel}, {other}, at brunch today.
      My first crush in school was {other}.
      Had a coffee with my ex, {other}, to return some books.
      {other} from work keeps flirting with me, but I'm not interested.
      Attended the wedding of {rel} and {other} on Saturday.
      Watched a rom-com where the lead was called {other}.
      A friend tried to set me up with {other}, but I said no.
    `),
  },
  diet: {
    first: lines(`
      I'm {v}.
      My diet is {v}.
      For recipes, keep in mind that I eat {v}.
      {name} is {v}.
      {name} sticks to a strictly {v} diet.
      I've been {v} for years.
      When suggesting restaurants, remember I'm {v}.
      Everything I cook at home is {v}.
    `),
    update: lines(`
      I've gone {v}.
      Switched from {prev} to {v} this year.
      I'm {v} now.
      No longer {prev}; these days I eat {v}.
      Cleared out the fridge and restocked it for my new {v} diet.
      Week three of eating {v} and I feel great.
      Bought my first {v} cookbook today!
      Told my mum I'm {v} now and she panicked about Christmas dinner.
      Asked the waiter for the {v} options without even thinking about it.
      {name} made the jump to eating {v} after the doctor's advice.
      Meal prepping {v} lunches every Sunday since the switch.
      My grocery list looks completely different since going {v}.
    `),
    negation: lines(`
      I'm not {prev} anymore.
      Gave up being {prev}; I eat everything again.
      Dropped the {prev} diet after a year.
      {name} has stopped eating {prev}.
      Quit {prev}, it just wasn't working for me.
    `),
    current: lines(`
      What diet do I follow?
      How does {name} eat these days?
      Am I on any particular diet right now?
      What kind of diet does {name} keep?
      What should I keep in mind about my diet when picking recipes?
    `),
    past: lines(`
      What diet was I on in {when}?
      How was {name} eating back in {when}?
      Was I following any particular diet in {when}?
    `),
    distract: lines(`
      Cooked dinner for {rel}, who is {other}.
      Tried the {other} tasting menu at a new restaurant, just for fun.
      Read an article about the health claims of {other} diets.
      My roommate in college was {other} and cooked for us all the time.
      Might try eating {other} for a week as an experiment someday.
      Hosting {rel} this weekend, so I need some {other} recipes.
      As a teenager I went {other} for about a month.
    `),
  },
  commute: {
    first: lines(`
      I get to work {v}.
      I commute {v}.
      My commute is {v}, about half an hour each way.
      I usually go to the office {v}.
      {name} commutes {v}.
      {name} travels to work {v} every day.
      Getting to the office {v} takes me around twenty minutes.
      Most mornings I head in {v}.
    `),
    update: lines(`
      I've switched to commuting {v}.
      Now I get to work {v} instead of {prev}.
      These days I commute {v}.
      I no longer go in {prev}; I travel {v} now.
      New routine: to the office {v}, every single morning.
      Got to work {v} again today, much less stressful than before.
      The new route into the office {v} is only twenty-five minutes.
      Since the move I've been getting in {v}, and I kind of love it.
      {name} has started going to work {v}.
      Made it to work {v} in record time this morning.
      Third week of heading to the office {v} and I'm not going back.
      Pretty sure I'll be travelling to work {v} for good now.
    `),
    negation: lines(`
      I don't commute {prev} anymore; I work from home.
      No more going to work {prev}, I'm fully remote now.
      {name} stopped commuting {prev} after going remote.
      Gave up travelling {prev}; no commute at all these days.
    `),
    current: lines(`
      How do I get to work?
      How does {name} commute these days?
      What's my commute like?
      How do I usually travel to the office now?
      How does {name} get into the office?
    `),
    past: lines(`
      How did I get to work in {when}?
      How was {name} commuting in {when}?
      How did I travel to the office back in {when}?
    `),
    distract: lines(`
      Apparently {rel} goes to work {other} every day.
      Went into town {other} on Saturday for some shopping.
      When I was a student I went to university {other}.
      Thinking about commuting {other} if the weather improves.
      Read a study claiming people who travel {other} are happier.
      Gave {rel} directions for getting to their office {other}.
      Just this once I went to work {other} because of the strike.
    `),
  },
  editor: {
    first: lines(`
      I use {v} for coding.
      My editor is {v}.
      {v} is my editor of choice.
      {name} edits code in {v}.
      {name}'s editor is {v}.
      My whole setup revolves around {v} and a couple of plugins.
      I spend most of my day inside {v}.
      My dotfiles repo is mostly config for {v}.
    `),
    update: lines(`
      Switched my editor from {prev} to {v}.
      I moved over to {v}.
      I'm using {v} now.
      No longer on {prev}; {v} is my editor these days.
      Spent the whole evening porting my keybindings to {v}.
      Finally got my {v} config just the way I like it.
      Still learning the shortcuts in {v}, but it's already faster.
      Uninstalled {prev} this morning, {v} is all I need.
      {name} has gone all in on {v}.
      Day four in {v}: the muscle memory is slowly coming.
      Found a great colour theme for {v} after trying dozens.
      Pinned {v} to my taskbar and removed everything else.
    `),
    current: lines(`
      Which editor do I use?
      What does {name} write code in these days?
      What's my code editor right now?
      Which editor is {name} using at the moment?
      What should I assume my editor is when giving shortcuts?
    `),
    past: lines(`
      Which editor did I use in {when}?
      What editor was {name} on back in {when}?
      What did I write code in during {when}?
    `),
    distract: lines(`
      Apparently {rel} swears by {other}.
      Watched a conference talk about {other} plugins.
      Had to open {other} on a colleague's laptop for a pairing session.
      Back in university I used {other} for my assignments.
      Might give {other} a try over the holidays, just out of curiosity.
      Read a long thread arguing {other} is the best editor ever made.
      Helped {rel} set up {other} on a new machine.
    `),
  },
  car: {
    first: lines(`
      I drive my {v} everywhere.
      My car is the {v} I bought second-hand.
      {name} drives the family {v}.
      {name}'s car is the old {v}.
      My {v} is due for a service soon.
      Parked my {v} in the usual spot this morning.
      I get around in my {v}.
      The car I drive every day is my {v}.
    `),
    update: lines(`
      I traded in my {prev} for the {v}.
      Bought a new car: the {v}.
      I'm driving the {v} now.
      Replaced my old car with the {v}.
      No longer driving the {prev}; got the {v} instead.
      Picked up the keys to my {v} from the dealer today!
      First road trip in the {v} and it handles beautifully.
      Still getting used to where all the buttons are in my {v}.
      Took the new {v} through the car wash for the first time.
      {name} just bought the {v}.
      Insurance for the {v} came through, so I'm finally on the road.
      Sold the {prev} on Saturday and drove home in my {v}.
    `),
    negation: lines(`
      Sold my {prev} and I'm living car-free for now.
      I don't drive the {prev} anymore; no car at all now.
      {name} got rid of the {prev} and doesn't own a car.
      The {prev} is gone and I'm not replacing it.
      Gave the {prev} away to my brother; I'm car-free now.
    `),
    current: lines(`
      What car do I drive?
      What does {name} drive now?
      Which car is {name} driving these days?
      What's my car?
      What make and model is my car?
    `),
    past: lines(`
      What car did I drive in {when}?
      What was {name} driving in {when}?
      Which car did I have back in {when}?
    `),
    distract: lines(`
      Test-drove the {other} just for fun; not buying.
      Went for a ride in the new {other} that {rel} bought.
      My first car was an old {other}.
      Had the {other} as a rental car on holiday.
      Dreaming of owning the {other} one day.
      Watched a video review of the {other} last night.
      Borrowed the {other} from {rel} for the weekend move.
    `),
  },
  food: {
    first: lines(`
      My favourite food is {v}.
      Nothing beats {v}.
      I could eat {v} every day.
      {name}'s favourite food is {v}.
      {name} loves {v} more than any other food.
      If I could only eat one thing forever, it would be {v}.
      Comfort food for me means {v}.
      Whenever I get to choose dinner, I pick {v}.
    `),
    update: lines(`
      My new favourite food is {v}.
      I've moved on from {prev}; these days my favourite is {v}.
      Lately I can't stop eating {v}.
      These days my favourite dish is {v}.
      Found a place that does {v} and I've been back four times this week.
      Had {v} for dinner again, third night in a row, no regrets.
      Learning to make {v} from scratch because I'm obsessed.
      {name} is now hooked on {v}.
      Honestly, my go-to comfort food is no longer {prev} but {v}.
      Craving {v} constantly since that trip; it's my new number one.
      Bought a whole cookbook dedicated to {v}.
      If you asked me today, my favourite would be {v}, hands down.
    `),
    current: lines(`
      What's my favourite food?
      Which dish does {name} love most right now?
      What's {name}'s favourite food?
      What do I like eating most these days?
      If you cooked for me, what would I want most?
    `),
    past: lines(`
      What was my favourite food in {when}?
      What was {name}'s favourite dish in {when}?
      What did I love eating most back in {when}?
    `),
    distract: lines(`
      Cooked {other} for {rel}, it's their favourite.
      As a child I ate {other} every Sunday at my grandmother's.
      Had {other} at a work lunch; it was fine.
      Want to learn how to make {other} at some point.
      Read a food blog post about the origins of {other}.
      There's a festival dedicated to {other} in town next week.
      I like {other} too, but it's not my favourite.
    `),
  },
  coffee: {
    first: lines(`
      My usual coffee order: {v}.
      I drink {v} every morning.
      I always order {v} at the café.
      My go-to drink: {v}.
      {name} drinks {v}.
      {name}'s usual is {v} with oat milk.
      Can't start my day without my {v}.
      The barista knows to make my {v} as soon as I walk in.
    `),
    update: lines(`
      I've switched from {prev} to {v}.
      My usual these days is {v}.
      I drink {v} now.
      No more {prev} for me; it's {v} now.
      New café habit: {v}, every morning without fail.
      Bought a fancy gadget just to make {v} at home.
      Ordered {v} again today, I think I'm hooked.
      {name} has switched to drinking {v}.
      Replaced my morning {prev} with {v} and I feel better for it.
      Fourth {v} this week, the café loyalty card is almost full.
      My mornings start with {v} instead of anything else these days.
      Got the café to memorise my new order: {v}.
    `),
    current: lines(`
      What do I usually drink in the morning?
      What's my usual coffee order?
      What does {name} order at the café these days?
      What's {name}'s go-to drink right now?
      If you picked up a drink for me, what should it be?
    `),
    past: lines(`
      What was my usual drink in {when}?
      What did {name} order at cafés back in {when}?
      What was I drinking every morning in {when}?
    `),
    distract: lines(`
      Picked up {other} for {rel} on the way to the office.
      Tried {other} once at an airport and never again.
      My dad has had {other} every morning for thirty years.
      The café on the corner is advertising {other} this week.
      Might try {other} next time just to see what the fuss is about.
      Watched a barista tutorial on making {other}.
    `),
  },
  band: {
    first: lines(`
      My favourite artist is {v}.
      I listen to {v} all the time.
      {v} is my favourite music act.
      {name}'s favourite artist is {v}.
      {name} is a huge {v} fan.
      Most of my playlists are just {v}.
      I know every song {v} ever released.
      When I need to focus I put on {v}.
    `),
    update: lines(`
      My new favourite artist is {v}.
      I've moved on from {prev}; I'm all about {v} now.
      These days I listen to {v} more than anything else.
      Lately {v} is the only thing on my playlist.
      Got tickets to see {v} live and I can't sit still!
      {v} has been on repeat for the whole month.
      Just bought my first {v} T-shirt at the merch stand.
      My year-end streaming recap says my top artist is {v}.
      {name} has become obsessed with {v}.
      Learning a few {v} songs on guitar because I can't get enough.
      Honestly, {v} has replaced {prev} in my heart.
      Joined the {v} fan forum last night.
    `),
    current: lines(`
      Who is my favourite artist?
      What music am I into right now?
      Which band or artist does {name} like best?
      Who does {name} listen to most these days?
      What's my favourite band at the moment?
    `),
    past: lines(`
      Who was my favourite artist in {when}?
      What music was {name} into back in {when}?
      Which band did I like best in {when}?
    `),
    distract: lines(`
      Went to see {other} with {rel} because they had a spare ticket.
      As a teenager I was obsessed with {other}.
      Heard {other} playing in a shop and didn't hate it.
      Read an interview with {other} on the train.
      Might check out the new {other} album when it drops.
      My neighbour blasts {other} every evening.
    `),
  },
  employer: {
    first: lines(`
      I work at {v}.
      My employer is {v}.
      I'm employed by {v}.
      {name} works for {v}.
      {name} is on staff at {v}.
      I've been at {v} for about three years.
      Long day at {v}, lots of meetings.
      My desk at {v} is on the fourth floor.
    `),
    update: lines(`
      I just started a new job at {v}.
      Left {prev} and joined {v}.
      I work for {v} now.
      No longer at {prev}: these days my employer is {v}.
      Signed the offer from {v} today!
      First week at {v} done, still learning everyone's names.
      Got my {v} laptop and email account set up this morning.
      Onboarding at {v} is so much smoother than I expected.
      {name} has joined {v}.
      Handed in my notice at {prev}; starting at {v} on Monday.
      Wearing the hoodie from my {v} welcome pack today.
      First payday from {v}, feels good.
    `),
    current: lines(`
      Where do I work?
      Who is {name}'s employer?
      Which company am I at right now?
      Who does {name} work for at the moment?
      What company should I put on the form?
    `),
    past: lines(`
      Where did I work in {when}?
      Which company was {name} at in {when}?
      Who was I working for back in {when}?
    `),
    distract: lines(`
      Interviewed at {other} but turned down the offer.
      Congratulated {rel} on getting hired at {other}.
      My first summer job was at {other}.
      Read that {other} is laying off staff.
      Would love to work at {other} someday.
      Had a call with a client from {other} this afternoon.
      Took a tour of the {other} headquarters while travelling.
    `),
  },
  role: {
    first: lines(`
      My job title is {v}.
      My role at work is {v}.
      I'm employed in the role of {v}.
      On paper my title is {v}.
      {name}'s title is {v}.
      {name} holds the {v} role on the team.
      My email signature says {v} under my name.
      Officially, I'm listed as {v} in the company directory.
    `),
    update: lines(`
      I got promoted to {v}.
      My title changed from {prev} to {v}.
      These days my job title is {v}.
      My role isn't {prev} anymore; it's {v}.
      New business cards arrived: {v}, right there under my name.
      Accepted the offer for the {v} position!
      First week in the {v} role and my calendar is already full.
      HR updated my title to {v} in the system today.
      {name} was promoted to {v}.
      The {v} job is harder than I expected, but I love it.
      Updated my LinkedIn headline to {v}.
      Moved from {prev} into the {v} job this quarter.
    `),
    current: lines(`
      What is my job title?
      What's {name}'s role these days?
      What position do I hold at the moment?
      What's my current title at work?
      What does {name} do for a living now?
    `),
    past: lines(`
      What was my job title in {when}?
      What role did {name} have in {when}?
      What was my position back in {when}?
    `),
    distract: lines(`
      Celebrated with {rel}, who just got promoted to {other}.
      We're hiring for the {other} position on my team.
      As a kid, I dreamed of the {other} job.
      Interviewed a candidate for the {other} role today.
      Read an article about what the {other} job actually involves.
      Might apply for the {other} opening next year.
    `),
  },
  language: {
    first: lines(`
      I mainly code in {v}.
      My main programming language is {v}.
      Most of what I write is {v}.
      {name} programs in {v}.
      {name}'s language of choice is {v}.
      At work we write almost everything in {v}.
      I develop mostly in {v}.
      {v} is the language I think in.
    `),
    update: lines(`
      I've switched to {v}.
      Moved our codebase from {prev} to {v}.
      I write {v} now.
      These days most of my code is {v}.
      No longer coding in {prev}; it's all {v} now.
      Finally shipped my first service written in {v}!
      Fighting with {v} error messages all afternoon, but I'm getting there.
      Rewrote the whole backend in {v} over the last month.
      {name} has moved over to {v} at work.
      My new team writes everything in {v}.
      Bought a book on idiomatic {v} and read half of it in one night.
      Every pull request I opened this week was {v}.
    `),
    current: lines(`
      Which programming language do I mostly use?
      What does {name} code in these days?
      What's my main language right now?
      Which language does {name} write most of their code in?
      What language should code examples for me be in?
    `),
    past: lines(`
      What language did I mainly code in during {when}?
      What was {name}'s main language in {when}?
      Which language was I writing back in {when}?
    `),
    distract: lines(`
      Helped {rel} debug some {other} code.
      Learned {other} at university but haven't used it since.
      Watched a talk on the new features in {other}.
      Thinking about picking up {other} as a hobby.
      Had to read some {other} at work for a one-off migration script.
      Read a blog post comparing {other} with other languages.
    `),
  },
};
