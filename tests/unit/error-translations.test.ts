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

/**
 * Every refusal is an `error-…` message with a translation errors.<message>
 * in all four languages (PRODUCT.md). The codes are collected from where they
 * can arise: the SQL (raise exception), the data layer's constraint mapping,
 * the auth adapters; the locales test then holds de, es and tr to English.
 */
test('every error code the product can produce is translated', () => {
	const sources = [...files('supabase/migrations', /\.sql$/), ...files('app', /\.tsx?$/)]
	// Class names and element ids that happen to start with "error-".
	const notCodes = new Set(['error-page', 'error-title'])
	const codes = new Set<string>()
	for (const file of sources) {
		for (const match of readFileSync(file, 'utf8').matchAll(/['"`](error-[a-z0-9]+(?:-[a-z0-9]+)*)['"`]/g)) {
			if (!notCodes.has(match[1]!)) codes.add(match[1]!)
		}
	}
	expect(codes.size).toBeGreaterThan(10)
	const translated = new Set(Object.keys(resources.en.translation.errors))
	const missing = [...codes].filter((code) => !translated.has(code)).sort()
	expect(missing).toEqual([])
})
