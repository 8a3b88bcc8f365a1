import { describe, expect, test } from 'vitest'
import { resources } from './index'

type Tree = { [key: string]: string | Tree }

function flatten(tree: Tree, prefix = ''): Map<string, string> {
	const out = new Map<string, string>()
	for (const [key, value] of Object.entries(tree)) {
		const path = prefix ? `${prefix}.${key}` : key
		if (typeof value === 'string') out.set(path, value)
		else for (const [k, v] of flatten(value, path)) out.set(k, v)
	}
	return out
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()

const en = flatten(resources.en.translation as unknown as Tree)

/** Strings that are rightly the same in every language: names, not words. */
const SAME_EVERYWHERE = new Set([
	'app.name',
	'languages.en',
	'languages.de',
	'languages.es',
	'languages.tr',
	'platforms.twitch',
	'platforms.youtube',
	'platforms.kick',
])

describe.each(['de', 'es', 'tr'] as const)('%s messages', (lng) => {
	const messages = flatten(resources[lng].translation as unknown as Tree)

	test('have exactly the English keys', () => {
		expect([...messages.keys()].sort()).toEqual([...en.keys()].sort())
	})

	test('are never empty and keep every {{placeholder}}', () => {
		for (const [key, value] of en) {
			const translated = messages.get(key) ?? ''
			expect(translated.trim(), key).not.toBe('')
			expect(placeholders(translated), key).toEqual(placeholders(value))
		}
	})

	test('are translated, not English copies', () => {
		const copies = [...en].filter(([key, value]) => !SAME_EVERYWHERE.has(key) && messages.get(key) === value).map(([k]) => k)
		expect(copies).toEqual([])
	})
})
