/**
 * The built-in terms of the text filter (docs/product.md §13.1). The filter
 * itself is in the database (app_private.filter_tokens and its neighbours in
 * supabase/schemas/moderation.sql): it normalises a text (NFKC, case folded,
 * diacritics removed, Turkish İ/ı → i, zero-width characters removed,
 * Cyrillic/Greek look-alikes and digit/symbol substitutions mapped to Latin
 * letters, spaced-out single letters joined; repeated letters also compared
 * squeezed, fuuuck as fuck) into tokens and matches these terms against
 * them. The rules a term here must be written for:
 *
 * - Whole-word: a term matches whole tokens only ("Scunthorpe" is not
 *   "cunt", "cocktail" is not "cock"); a term of several words matches those
 *   tokens in sequence.
 * - A term ending in `*` is a prefix term: it matches every token that begins
 *   with it (German compounds: `arsch*` matches "Arschgesicht"). Only where no
 *   ordinary word of the four languages begins with it (no `fick*`: "fickle").
 * - One list for every dare, whatever its language (a German viewer may write
 *   in English): a term that is an ordinary word in any of English, German,
 *   Spanish or Turkish, after that normalisation, is not on it ("göt" would
 *   be "got", "dick" is German for fat; the few kept on purpose are named
 *   at EXCLUSIONS).
 * - A match holds the dare for the creator's review; it does not refuse it.
 *   So the list is for clear insults, slurs, sexual terms and threats, not
 *   mild or medical words.
 *
 * Terms are written as people write them (case, letters); the database
 * normalises them the same way as the texts.
 *
 * Source: the en, de, es and tr lists of naughty-words 1.2.0, the npm package
 * of "List of Dirty, Naughty, Obscene, and Otherwise Bad Words"
 * (https://github.com/LDNOOBW/List-of-Dirty-Naughty-Obscene-and-Otherwise-Bad-Words),
 * CC-BY-4.0; with our own EXCLUSIONS and ADDITIONS below (credited in README.md).
 */
import de from 'naughty-words/de.json'
import en from 'naughty-words/en.json'
import es from 'naughty-words/es.json'
import tr from 'naughty-words/tr.json'

export type TermLanguage = 'en' | 'de' | 'es' | 'tr'
export type BuiltinTerm = { language: TermLanguage; term: string }

const LANGUAGES: readonly TermLanguage[] = ['en', 'de', 'es', 'tr']
const SOURCE: Readonly<Record<TermLanguage, readonly string[]>> = { en, de, es, tr }

/**
 * Terms of the source lists left out, by the list they are in (an exclusion
 * removes the term from that list only), each with its reason.
 *
 * Kept on purpose although another language or a rare sense has the same
 * word, because the abusive sense is the one a dare means: rape (Spanish
 * "rape", monkfish), cum (Latin "cum laude"), cock, pussy, bitch (animals),
 * hooker (rugby), fag (British cigarette), wank (German "wank!", sway),
 * sikim and siktir (Turkish "sıkım", a squeeze; "sıktır", have it squeezed),
 * aq (an abbreviation); boner, boobs, dommes, puto, mamón and sikim, which
 * squeezed meet rare words (Bonner, Bobs, Domes, putto, Mammon, Sikkim). And
 * nigger, faggot, whose squeezed forms are "niger" (Niger) and "fagot"
 * (Spanish bassoon, German "Fagott"): the squeezed match has to tell those
 * apart, not this list.
 */
export const EXCLUSIONS: Readonly<Record<TermLanguage, Readonly<Record<string, string>>>> = {
	en: {
		'2g1c': 'has digits, which the normaliser reads as letters (1 → i)',
		'2 girls 1 cup': 'has digits; "two girls one cup" stays',
		'rosy palm and her 5 sisters': 'has a digit; "rosy palm" stays',
		's&m': 'becomes the single letters "s m", which the normaliser joins',
		'🖕': 'no letters: the normaliser keeps no token of it',
		xx: 'ordinary (kisses, chromosomes, Roman 20)',
		xxx: 'ordinary (kisses at the end of a message)',
		ass: 'German "Ass" (ace); "asshole", "arsehole" stay',
		dick: 'German "dick" (fat, thick); "dickhead" is added',
		negro: 'Spanish "negro" (black)',
		kike: 'Spanish "Kike" (common short form of Enrique); "kikes" is added',
		quim: 'Catalan/Spanish first name "Quim"; dated slang',
		bastardo: 'Spanish, kept in the es list',
		nutten: 'German (plural of Nutte), added to the de list',
		anus: 'medical',
		clitoris: 'medical',
		ejaculation: 'medical',
		fecal: 'medical',
		genitals: 'medical',
		penis: 'medical',
		rectum: 'medical',
		vagina: 'medical',
		vulva: 'medical',
		semen: 'medical',
		nipple: 'anatomical and mild',
		nipples: 'anatomical and mild',
		cialis: 'a medicine',
		viagra: 'a medicine',
		eunuch: 'historical',
		bastinado: 'historical torture, not an insult',
		strappado: 'historical torture, not an insult',
		escort: 'ordinary (escort mission, police escort)',
		domination: 'ordinary (world domination)',
		erotic: 'too mild',
		erotism: 'too mild',
		homoerotic: 'literary term, too mild',
		sex: 'ordinary (a person\'s sex; German "Sex")',
		sexual: 'ordinary',
		sexually: 'ordinary',
		sexuality: 'ordinary',
		sexy: 'too mild',
		sexo: 'Spanish "sexo" (sex): ordinary',
		nude: 'too mild (and a colour), like German "nackt"',
		nudity: 'too mild, like German "nackt"',
		undressing: 'ordinary',
		intercourse: 'ordinary (social intercourse), clinical',
		lovemaking: 'ordinary',
		horny: 'too mild',
		kinky: 'too mild (kinky hair)',
		busty: 'too mild',
		panties: 'ordinary clothing',
		panty: 'ordinary clothing',
		buttcheeks: 'too mild',
		tushy: 'too mild',
		butt: 'ordinary (cigarette butt, butt of a joke)',
		suck: 'ordinary ("this game sucks")',
		sucks: 'ordinary ("this game sucks")',
		grope: 'ordinary (grope in the dark)',
		snatch: 'ordinary (snatch the win)',
		snowballing: 'ordinary (the costs are snowballing)',
		scissoring: 'ordinary',
		fingering: 'ordinary (guitar fingering)',
		shrimping: 'ordinary (fishing for shrimp)',
		scat: 'ordinary (scat singing, droppings)',
		skeet: 'ordinary (skeet shooting)',
		spunk: 'ordinary (courage)',
		smut: 'too mild',
		swinger: 'ordinary (golf swinger)',
		voyeur: 'ordinary',
		voyuer: 'misspelt "voyeur": ordinary',
		sadism: 'ordinary',
		cornhole: 'ordinary (the lawn game)',
		bareback: 'ordinary (riding bareback)',
		barenaked: 'too mild (Barenaked Ladies)',
		'barely legal': 'ordinary phrase',
		'big black': 'ordinary phrase',
		'ball kicking': 'ordinary (kicking a ball)',
		'baby juice': 'ordinary phrase (juice for babies)',
		'camel toe': 'too mild, and literal',
		'girl on': 'ordinary phrase ("the girl on the left")',
		'girl on top': 'ordinary phrase',
		'god damn': 'a mild oath',
		'hard core': 'ordinary (hard-core fans)',
		hardcore: 'ordinary (hardcore mode)',
		'hot chick': 'too mild',
		'how to kill': 'ordinary ("how to kill the boss")',
		'how to murder': 'ordinary ("how to murder a mystery")',
		'huge fat': 'ordinary phrase',
		'jelly donut': 'ordinary (a pastry)',
		'make me come': 'ordinary ("make me come to the party")',
		'strap on': 'ordinary ("strap on your helmet"); "strapon" stays',
		'tainted love': 'a song',
		'taste my': 'ordinary ("taste my cooking")',
		'tea bagging': 'everyday gaming slang, too mild',
		'tied up': 'ordinary ("I\'m tied up")',
		'tight white': 'ordinary phrase',
		'tongue in a': 'ordinary phrase',
		'wet dream': 'ordinary idiom, too mild',
		'alaskan pipeline': 'ordinary (the Trans-Alaska Pipeline)',
		'sultry women': 'too mild',
		tit: 'ordinary (the bird; tit for tat); "tits" stays',
		poof: 'ordinary (the exclamation)',
		twink: 'too mild',
		twinkie: 'ordinary (the snack cake)',
		tosser: 'too mild; squeezed (ss → s) it is Spanish "toser" (to cough)',
		lolita: 'ordinary (Spanish first name; the novel; a fashion)',
		octopussy: 'a film title',
		playboy: 'ordinary (a magazine; a rich man)',
		santorum: 'a surname',
		neonazi: 'ordinary descriptive word, like "Nazi"',
		ecchi: 'too mild (an anime genre)',
		yaoi: 'too mild (an anime genre)',
		guro: 'Spanish "guro"; an obscure genre name',
		pubes: 'Spanish "pubes" (plural of pubis): anatomical',
		'spread legs': 'ordinary (stretching: "spread legs wide")',
	},
	de: {
		nackt: 'ordinary (naked)',
		penis: 'medical',
		mufti: 'ordinary (an Islamic scholar)',
		bonze: 'ordinary (Parteibonze; a Buddhist monk)',
		popel: 'too mild (bogey)',
		pissen: 'squeezed (ss → s) it is Turkish "pişen" (cooked); "pisser" stays',
		pinkeln: 'too mild (to pee)',
		nippel: 'anatomical and technical (Schmiernippel)',
		bimbo: 'Spanish "Bimbo" (sliced bread, as ordinary as the brand is common)',
		fratze: 'ordinary ("Fratzen schneiden", pull faces)',
		ische: 'too mild (colloquial for girl)',
		kimme: 'ordinary (rear sight: "Kimme und Korn")',
		'lümmel': 'too mild (lout)',
		'möpse': 'ordinary (plural of Mops, pug)',
		'möse': 'becomes "mose": German "Mose" (Moses)',
		reudig: 'too mild (räudig, mangy)',
		rosette: 'ordinary (a rosette)',
		schabracke: 'ordinary (saddle cloth), too mild',
		schiesser: 'a brand, and "Schießer"',
		schnackeln: 'ordinary ("es hat geschnackelt")',
		'vögeln': 'becomes "vogeln": German "Vögeln" (dative plural of Vogel)',
	},
	es: {
		asesinato: 'ordinary (murder)',
		asno: 'ordinary (donkey)',
		caca: 'too mild (poo)',
		chupada: 'ordinary (past participle of chupar)',
		'chupetón': 'too mild (love bite)',
		concha: 'ordinary in Spain (shell); "Concha de tu madre" stays',
		'coño': 'becomes "cono": Spanish "cono" (cone); and an everyday exclamation',
		'coprofagía': 'medical (and zoology)',
		drogas: 'ordinary (drugs)',
		esperma: 'medical',
		'fiesta de salchichas': 'ordinary phrase (a sausage party, a film)',
		gilipichis: 'too mild (a softened gilipollas)',
		'haciendo el amor': 'ordinary (making love)',
		'heroína': 'becomes "heroina": heroine',
		idiota: 'too mild (and English/German "idiot" are not on the list)',
		'imbécil': 'too mild, like idiota',
		infierno: 'ordinary (hell)',
		maciza: 'ordinary ("madera maciza", solid wood)',
		macizorra: 'too mild',
		maldito: 'ordinary (damned)',
		martillo: 'ordinary (hammer)',
		nazi: 'ordinary (historical, in all four languages)',
		orina: 'medical (urine)',
		pedo: 'too mild (fart; "¿qué pedo?")',
		'pezón': 'anatomical (nipple)',
		pinche: 'ordinary in Spain (kitchen hand)',
		pis: 'too mild (pee)',
		prostituta: 'ordinary neutral word; "puta" stays',
		racista: 'ordinary (racist)',
		'sádico': 'ordinary (sadistic)',
		soplagaitas: 'too mild (nincompoop)',
		'tía buena': 'too mild (and "good aunt")',
		travesti: 'ordinary descriptive word',
		trio: 'ordinary (a trio)',
		sexo: 'ordinary (sex); "sexo oral" stays',
		semen: 'medical',
		vulva: 'medical',
	},
	tr: {
		am: 'English "am"',
		'amı': 'becomes "ami": German "Ami" (American)',
		sik: 'becomes the same as "sık" (often, dense: "sık sık")',
		siki: 'becomes the same as "sıkı" (tight, strict)',
		sikin: 'becomes the same as "sıkın" (squeeze!)',
		sike: 'becomes the same as "şike" (match fixing); English "sike!" (psych)',
		'göt': 'becomes "got" (English)',
		'götten': 'becomes "gotten" (English)',
		'göte': 'becomes "gote": German "Gote" (Goth)',
		'götte': 'becomes "gotte", squeezed "gote": German "Gote" (Goth)',
		'çingene': 'ordinary ethnonym (Roma), not an insult in itself',
		'çingenede': 'ordinary ethnonym (Roma)',
		'çingeneden': 'ordinary ethnonym (Roma)',
		'çingeneler': 'ordinary ethnonym (Roma)',
		'çingenelerde': 'ordinary ethnonym (Roma)',
		'çingenelerden': 'ordinary ethnonym (Roma)',
		'çingenelere': 'ordinary ethnonym (Roma)',
		'çingeneleri': 'ordinary ethnonym (Roma)',
		'çingenelerin': 'ordinary ethnonym (Roma)',
		'çingenenin': 'ordinary ethnonym (Roma)',
		'çingeneye': 'ordinary ethnonym (Roma)',
		'çingeneyi': 'ordinary ethnonym (Roma)',
	},
}

/**
 * Terms the source lists lack: common insults, slurs and threats and their
 * frequent inflections; `*` where compounds or inflections are common.
 * Not added on purpose: `fick*` ("fickle"), `shit*` ("shitake"), `cunt*`
 * (Turkish "cunta", junta), `faggot*` ("faggoting", a stitch), `wank*`
 * ("Wankel"), `foll*` ("folleto"), `puta*` ("putativo"), `retard*`
 * ("retardant"), `nigg*` ("niggle"), `nigger*` (squeezed "niger*":
 * Nigeria), bare `piç` ("pic"), `oç` ("OC"), `ananı`
 * and `amına` alone (ordinary "your mother", the name Amina), `puşt` (German
 * "pust!"), `geber` (German "Geber"), `capullo` (bud), `perra` (dog).
 */
export const ADDITIONS: Readonly<Record<TermLanguage, readonly string[]>> = {
	en: [
		'fuck*',
		'motherfuck*',
		'cocksuck*',
		'cunts',
		'cunty',
		'bitch*',
		'whore*',
		'faggots',
		'niggers',
		'niggas',
		'fags',
		'kikes',
		'shits',
		'shitting',
		'shithead',
		'shithole',
		'shitface',
		'shitshow',
		'dipshit',
		'dickhead',
		'assholes',
		'arseholes',
		'twats',
		'wanker',
		'wankers',
		'wanking',
		'sluts',
		'slutty',
		'retard',
		'retards',
		'retarded',
		'kys',
		'kill yourself',
		'kill urself',
		'neck yourself',
		'hang yourself',
		'i will kill you',
		"i'll kill you",
		'ill kill you',
	],
	de: [
		'arsch*',
		'scheiß*',
		'wichs*',
		'schwuchtel*',
		'wixer',
		'wixxer',
		'ficke',
		'fickt',
		'fickst',
		'fickte',
		'ficker',
		'gefickt',
		'fotzen',
		'huren',
		'hurensöhne',
		'hurenbock',
		'nutten',
		'schlampen',
		'spast',
		'spasti',
		'spasten',
		'missgeburt*',
		'kanaken',
		'kinderficker*',
		'judensau',
		'drecksau',
		'drecksack',
		'bring dich um',
		'häng dich auf',
		'verreck',
		'verrecke',
	],
	es: [
		'malparido',
		'malparida',
		'malparidos',
		'puto',
		'putos',
		'putas',
		'zorra',
		'zorras',
		'cabrona',
		'cabrones',
		'pendej*',
		'mamón',
		'culero',
		'culeros',
		'maricones',
		'joder',
		'jódete',
		'follando',
		'hijo de perra',
		'chinga tu madre',
		'chingada',
		'chingar',
		'sudaca',
		'tetas',
		'mátate',
		'muérete',
		'suicídate',
		'te voy a matar',
	],
	tr: [
		'amk',
		'aq',
		'amına koyayım',
		'amına koyim',
		'amına koyarım',
		'ananın amı',
		'amcık*',
		'sikerim',
		'sikeyim',
		'sikim',
		'sikik',
		'sik kafalı',
		'siktirgit',
		'orospu*',
		'piç kurusu',
		'piçler',
		'yavşak*',
		'ibne*',
		'gavat',
		'pezevenk*',
		'götveren*',
		'kahpe',
		'şerefsiz',
		'yarrak',
		'dalyarak',
		'kendini öldür',
	],
}

/**
 * A term's identity for removing duplicates and matching exclusions: lower
 * case, no diacritics, ß → ss, ı → i (a rough, local stand-in for the
 * database's normaliser, enough to tell two written forms of one term apart).
 */
function termKey(term: string): string {
	return term
		.toLowerCase()
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.replace(/ß/g, 'ss')
		.replace(/ı/g, 'i')
		.replace(/\s+/g, ' ')
		.trim()
}

function build(): readonly BuiltinTerm[] {
	const seen = new Set<string>()
	const terms: BuiltinTerm[] = []
	for (const language of LANGUAGES) {
		const excluded = new Set(Object.keys(EXCLUSIONS[language]).map(termKey))
		const listed = SOURCE[language].filter((term) => !excluded.has(termKey(term)))
		for (const written of [...listed, ...ADDITIONS[language]]) {
			const term = written.trim()
			const key = termKey(term)
			if (!key || seen.has(key)) continue
			seen.add(key)
			terms.push(Object.freeze({ language, term }))
		}
	}
	return Object.freeze(terms)
}

let cached: readonly BuiltinTerm[] | undefined

/** The built-in terms, each once, tagged with the list it comes from (English first on a term two lists share). */
export function builtinTerms(): readonly BuiltinTerm[] {
	return (cached ??= build())
}
