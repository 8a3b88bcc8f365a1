import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { resources } from '#locales/index'

/** Every file below `dir` whose name matches. */
function files(dir: string, pattern: RegExp): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name)
		if (statSync(path).isDirectory()) return files(path, pattern)
		return pattern.test(name) && !name.includes('.test.') ? [path] : []
	})
}

/** The database as it is now: supabase/schemas (docs/decisions/047-declarative-schemas.md). */
function currentSql(): string {
	return files('supabase/schemas', /\.sql$/)
		.map((file) => readFileSync(file, 'utf8'))
		.join('\n')
}

/**
 * Every refusal is an `error-…` message with a translation errors.<message>
 * in all four languages (docs/product.md §12.1). The codes are collected from where they
 * can arise: the current SQL (raise exception), the data layer's constraint mapping,
 * the auth adapters; the locales test then holds de, es and tr to English.
 */
test('every error code the product can produce is translated', () => {
	const sources = [currentSql(), ...files('app', /\.tsx?$/).map((file) => readFileSync(file, 'utf8'))]
	// Class names and element ids that happen to start with "error-".
	const notCodes = new Set(['error-page', 'error-title'])
	const codes = new Set<string>()
	for (const text of sources) {
		// A code as a string, or a translation key `errors.error-…`.
		for (const match of text.matchAll(/['"`](?:errors\.)?(error-[a-z0-9]+(?:-[a-z0-9]+)*)['"`]/g)) {
			if (!notCodes.has(match[1]!)) codes.add(match[1]!)
		}
	}
	expect(codes.size).toBeGreaterThan(10)
	const translated = new Set(Object.keys(resources.en.translation.errors))
	const missing = [...codes].filter((code) => !translated.has(code)).sort()
	expect(missing).toEqual([])
	// And no translation of a code nothing produces any more: a dead one
	// says the product has a refusal it does not have.
	// (A refusal that carries a wait, `error-rate-limited:840`, is shown with its
	// `-wait` text: app/components/forms.tsx.)
	const dead = [...translated].filter((code) => code.startsWith('error-') && !codes.has(code) && !codes.has(code.replace(/-wait$/, ''))).sort()
	expect(dead).toEqual([])
})
