import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { LOCALES, LOCALE_CODES, type Locale } from '#app/i18n/locales'
import { renderMarkdown } from './markdown.server'
import type { LegalPageData } from './types'

export type { LegalPageData } from './types'

/**
 * The legal documents are Markdown files the operator edits:
 * `content/legal/<document>.<lang>.md`, one per document and language, each
 * starting with front matter that names the document's version and the date
 * it took effect:
 *
 *     ---
 *     version: 2026-11-24
 *     updated: 2026-11-24
 *     ---
 *
 * A document has one version across its languages: users accept the terms
 * and the creator agreement by version, whatever language they read them in,
 * so a new version of the text is a new version in every language. A missing
 * language, a version that differs between languages or a malformed header
 * stops the server at boot with a message naming the file.
 */
export const LEGAL_DOCUMENTS = ['terms', 'privacy', 'imprint', 'creator-agreement'] as const
export type LegalDocumentId = (typeof LEGAL_DOCUMENTS)[number]

export const LEGAL_CONTENT_DIR = 'content/legal'

/** Same rule as `public.consents.version` in SQL: the version is what consent is recorded against. */
const VERSION = /^[A-Za-z0-9._-]{1,32}$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

export type LegalSource = { version: string; updated: string; body: string }
type Library = Record<LegalDocumentId, Record<Locale, LegalSource>>

export class LegalContentError extends Error {
	override name = 'LegalContentError'
}

/** Splits `---` front matter (only `version` and `updated`, one `key: value` a line) from the body. */
export function parseLegalSource(text: string, file: string): LegalSource {
	const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text)
	if (!match) throw new LegalContentError(`${file}: must start with front matter (--- version: ... updated: ... ---)`)
	const fields: Record<string, string> = {}
	for (const line of match[1]!.split(/\r?\n/)) {
		if (!line.trim() || line.trim().startsWith('#')) continue
		const pair = /^([a-z]+):\s*(.*?)\s*$/.exec(line)
		if (!pair) throw new LegalContentError(`${file}: front matter line "${line}" is not "key: value"`)
		const [, key, raw] = pair as unknown as [string, string, string]
		if (key !== 'version' && key !== 'updated') throw new LegalContentError(`${file}: unknown front matter key "${key}" (expected version, updated)`)
		fields[key] = raw.replace(/^(['"])(.*)\1$/, '$2')
	}
	const { version, updated } = fields
	if (!version || !VERSION.test(version)) {
		throw new LegalContentError(`${file}: version must be 1 to 32 letters, digits, dots, dashes or underscores, got "${version ?? ''}"`)
	}
	if (!updated || !DATE.test(updated) || Number.isNaN(Date.parse(`${updated}T00:00:00Z`))) {
		throw new LegalContentError(`${file}: updated must be a date (YYYY-MM-DD), got "${updated ?? ''}"`)
	}
	const body = match[2]!
	if (!body.trim()) throw new LegalContentError(`${file}: the document is empty`)
	return { version, updated, body }
}

/** Reads and checks every document in every language. Throws LegalContentError naming each problem. */
export function loadLegalLibrary(dir: string = resolve(LEGAL_CONTENT_DIR)): Library {
	const problems: string[] = []
	const expected = new Set(LEGAL_DOCUMENTS.flatMap((doc) => LOCALE_CODES.map((lang) => `${doc}.${lang}.md`)))
	let present: string[]
	try {
		present = readdirSync(dir).filter((name) => name.endsWith('.md'))
	} catch {
		throw new LegalContentError(`Legal documents: cannot read the folder ${dir}`)
	}
	for (const name of present) {
		if (!expected.has(name)) problems.push(`${name}: not a known document and language (expected <${LEGAL_DOCUMENTS.join('|')}>.<${LOCALE_CODES.join('|')}>.md)`)
	}
	const library = {} as Library
	for (const doc of LEGAL_DOCUMENTS) {
		const byLang = {} as Record<Locale, LegalSource>
		for (const lang of LOCALE_CODES) {
			const name = `${doc}.${lang}.md`
			if (!present.includes(name)) {
				problems.push(`${name}: missing (every document exists in ${LOCALE_CODES.join(', ')})`)
				continue
			}
			try {
				byLang[lang] = parseLegalSource(readFileSync(join(dir, name), 'utf8'), name)
			} catch (error) {
				problems.push(error instanceof Error ? error.message : String(error))
			}
		}
		const versions = new Set(Object.values(byLang).map((source) => `version ${source.version}, updated ${source.updated}`))
		if (versions.size > 1) {
			const list = LOCALE_CODES.filter((lang) => byLang[lang])
				.map((lang) => `${lang}: ${byLang[lang]!.version} (${byLang[lang]!.updated})`)
				.join('; ')
			problems.push(`${doc}: every language must carry the same version and date (${list})`)
		}
		library[doc] = byLang
	}
	if (problems.length) throw new LegalContentError(`Legal documents in ${dir} are not ready:\n  ${problems.join('\n  ')}`)
	return library
}

let cached: Library | undefined
function library(): Library {
	cached ??= loadLegalLibrary()
	return cached
}

/**
 * The versions users accept: the terms of service and the creator agreement
 * as the shipped (or operator-edited) files say. Consent is recorded against
 * these (public.consents), so publishing a new version asks everyone again.
 */
export function currentDocumentVersions(): { terms_of_service: string; creator_agreement: string } {
	const docs = library()
	return { terms_of_service: docs.terms.en.version, creator_agreement: docs['creator-agreement'].en.version }
}

const rendered = new Map<string, LegalPageData>()

export function legalPage(doc: LegalDocumentId, lang: Locale): LegalPageData {
	const key = `${doc}.${lang}`
	const hit = rendered.get(key)
	if (hit) return hit
	const source = library()[doc][lang]
	const tag = LOCALES.find((l) => l.code === lang)!.language
	const page: LegalPageData = {
		version: source.version,
		updatedIso: source.updated,
		updated: new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${source.updated}T00:00:00Z`)),
		...renderMarkdown(source.body),
	}
	rendered.set(key, page)
	return page
}
