import de from 'naughty-words/de.json'
import en from 'naughty-words/en.json'
import es from 'naughty-words/es.json'
import tr from 'naughty-words/tr.json'
import { describe, expect, test } from 'vitest'
import { abusive, harmless } from '#tests/support/moderation-corpus'
import { ADDITIONS, builtinTerms, EXCLUSIONS, type TermLanguage } from './terms'

const LANGUAGES: readonly TermLanguage[] = ['en', 'de', 'es', 'tr']
const SOURCE: Record<TermLanguage, readonly string[]> = { en, de, es, tr }

/*
 * A rough mirror, in plain JS, of the database's normaliser: the real one is
 * SQL (app_private.filter_tokens, supabase/schemas/moderation.sql), and the
 * real check of the corpus against it is the SQL test. This one only keeps
 * the terms and the corpus honest: NFKC, lower case, a few look-alike
 * letters, digit/symbol substitutions, zero-width characters dropped,
 * diacritics stripped (NFD, no \p{M}), ß → ss, ı → i, tokens on anything but
 * letters, runs of three or more single letters joined; and, for terms of
 * four letters or more, the same match on squeezed tokens (fuuuck as fuck).
 */
const LOOK_ALIKES: Record<string, string> = { а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', і: 'i', ѕ: 's', α: 'a', ε: 'e', ο: 'o', ι: 'i', κ: 'k', ν: 'v', τ: 't', ρ: 'p' }
const SUBSTITUTES: Record<string, string> = { 0: 'o', 1: 'i', 3: 'e', 4: 'a', 5: 's', 7: 't', 8: 'b', '@': 'a', $: 's' }

/** The words of a text, before runs of single letters are joined. */
function words(text: string): string[] {
	return text
		.normalize('NFKC')
		.toLowerCase()
		.replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, '')
		.replace(/./gu, (c) => LOOK_ALIKES[c] ?? SUBSTITUTES[c] ?? c)
		.normalize('NFD')
		.replace(/\p{M}/gu, '')
		.replace(/ß/g, 'ss')
		.replace(/ı/g, 'i')
		.split(/[^\p{L}]+/u)
		.filter(Boolean)
}

function tokens(text: string): string[] {
	const joined: string[] = []
	let letters = ''
	const flush = () => {
		joined.push(...(letters.length >= 3 ? [letters] : letters.split('')))
		letters = ''
	}
	for (const word of words(text)) {
		if (word.length === 1) {
			letters += word
			continue
		}
		flush()
		joined.push(word)
	}
	flush()
	return joined
}

const squeeze = (word: string) => word.replace(/(\p{L})\1+/gu, '$1')

type Compiled = { term: string; words: string[]; prefix: boolean }

function compile(term: string): Compiled {
	const prefix = term.endsWith('*')
	return { term, prefix, words: tokens(prefix ? term.slice(0, -1) : term) }
}

/** Whether `words` are in `textTokens` in sequence, the last one a prefix for a `*` term. */
function contains(textTokens: readonly string[], words: readonly string[], prefix: boolean): boolean {
	return textTokens.some((_, start) =>
		words.every((word, i) => {
			const token = textTokens[start + i]
			if (token === undefined) return false
			return prefix && i === words.length - 1 ? token.startsWith(word) : token === word
		}),
	)
}

/** The terms a text holds. */
function held(text: string, terms: readonly Compiled[]): string[] {
	const textTokens = tokens(text)
	const squeezed = textTokens.map(squeeze)
	return terms
		.filter(
			({ words, prefix }) =>
				contains(textTokens, words, prefix) || (words.join('').length >= 4 && contains(squeezed, words.map(squeeze), prefix)),
		)
		.map(({ term }) => term)
}

const terms = builtinTerms()
const compiled = terms.map(({ term }) => compile(term))

/**
 * Ordinary words of the four languages, none of which a term may hold: words
 * the source lists have or that the normalisation turns into one of theirs,
 * and words next to a tempting addition. (Not "Niger" nor "Fagott": squeezed
 * they are "nigger" and "faggot"; that is for the SQL's squeezed match to
 * tell apart.)
 */
const ORDINARY: Record<TermLanguage, readonly string[]> = {
	en: [
		'am', 'got', 'gotten', 'pic', 'oc', 'hell', 'god', 'class', 'assassin', 'Dickens', 'cocktail', 'Scunthorpe',
		'escort', 'domination', 'erotic', 'sex', 'nude', 'penis', 'vagina', 'butt', 'suck', 'sucks', 'hardcore', 'snatch', 'scat',
		'grope', 'swinger', 'twinkie', 'idiot', 'sike', 'fickle', 'shiitake', 'shitake', 'niggle', 'niggling', 'retardant',
		'cumin', 'cumulative', 'Wankel', 'faggoting', 'whorl', 'Nigeria',
	],
	de: [
		'Ass', 'dick', 'Ami', 'Gote', 'Mose', 'Geber', 'pust', 'nackt', 'Penis', 'Vögeln', 'Möpse', 'Fratze', 'Kimme', 'Rosette',
		'Mufti', 'Bonze', 'Popel', 'pinkeln', 'Nippel', 'Schießer', 'Schwanz', 'Schwanensee', 'Hackfleisch', 'behindert',
		'Idiot', 'Nazi',
	],
	es: [
		'martillo', 'infierno', 'sexo', 'drogas', 'orina', 'negro', 'Kike', 'Bimbo', 'cono', 'concha', 'pinche', 'heroína',
		'asno', 'trío', 'maldito', 'idiota', 'nazi', 'pedo', 'paja', 'pelota', 'perra', 'capullo', 'folleto', 'putativo', 'toser',
	],
	tr: ['am', 'sık', 'sıkı', 'sıkın', 'şike', 'sikke', 'anan', 'ananı', 'Amina', 'cunta', 'çingene', 'sıkıntı', 'sıkışmak', 'pişen'],
}

describe('built-in terms', () => {
	test('each language has terms', () => {
		for (const language of LANGUAGES) expect(terms.filter((t) => t.language === language).length, language).toBeGreaterThan(20)
	})

	test('each term is written cleanly: trimmed, at most 60 characters, letters and no digits, `*` only at the end', () => {
		for (const { term } of terms) {
			expect(term, term).toBe(term.trim())
			expect(term.length, term).toBeGreaterThan(0)
			expect(term.length, term).toBeLessThanOrEqual(60)
			expect(term, term).toMatch(/^[^*]+\*?$/)
			expect(term, term).toMatch(/\p{L}/u)
			expect(term, term).not.toMatch(/\p{N}/u)
		}
	})

	test('each term normalises to tokens the normaliser would not rejoin (no two single letters in a row)', () => {
		for (const { term } of terms) {
			const written = words(term.replace(/\*$/, ''))
			expect(written.length, term).toBeGreaterThan(0)
			expect(written.some((word, i) => word.length === 1 && written[i + 1]?.length === 1), term).toBe(false)
		}
	})

	test('no duplicates, lower-cased or normalised', () => {
		const lower = terms.map(({ term }) => term.toLowerCase())
		expect(new Set(lower).size).toBe(lower.length)
		const normalised = compiled.map(({ words, prefix }) => words.join(' ') + (prefix ? '*' : ''))
		expect(normalised.filter((key, i) => normalised.indexOf(key) !== i)).toEqual([])
	})

	test('no term is an ordinary word, and no prefix term begins one', () => {
		for (const [language, words] of Object.entries(ORDINARY)) {
			for (const word of words) expect(held(word, compiled), `${language} "${word}"`).toEqual([])
		}
	})

	test('each exclusion names a term of its source list, which then is not in that language, and no addition is excluded', () => {
		for (const language of LANGUAGES) {
			const source = new Set(SOURCE[language].map((term) => tokens(term).join(' ')))
			const kept = new Set(compiled.filter((_, i) => terms[i]?.language === language).map((c) => c.words.join(' ')))
			for (const excluded of Object.keys(EXCLUSIONS[language])) {
				const key = tokens(excluded).join(' ')
				expect(source.has(key), `${language} exclusion "${excluded}" is in naughty-words`).toBe(true)
				if (key) expect(kept.has(key), `${language} "${excluded}" is excluded`).toBe(false)
			}
			const additions = new Set(ADDITIONS[language].map((term) => tokens(term).join(' ')))
			for (const excluded of Object.keys(EXCLUSIONS[language])) expect(additions.has(tokens(excluded).join(' ')), excluded).toBe(false)
		}
	})

	test('is computed once, and frozen', () => {
		expect(builtinTerms()).toBe(terms)
		expect(Object.isFrozen(terms)).toBe(true)
		expect(Object.isFrozen(terms[0])).toBe(true)
	})
})

describe('the moderation corpus against the terms (a JS approximation; the real check is the SQL test)', () => {
	test('enough texts in each language', () => {
		for (const language of LANGUAGES) {
			expect(abusive.filter((t) => t.language === language).length, language).toBeGreaterThanOrEqual(6)
			expect(harmless.filter((t) => t.language === language).length, language).toBeGreaterThanOrEqual(5)
		}
	})

	test.each(abusive)('held: $text ($note)', ({ text }) => {
		expect(held(text, compiled)).not.toEqual([])
	})

	test.each(harmless)('passes: $text ($note)', ({ text }) => {
		expect(held(text, compiled)).toEqual([])
	})
})
