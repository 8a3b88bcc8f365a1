import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { LOCALE_CODES } from '#app/i18n/locales'
import {
	currentDocumentVersions,
	LEGAL_CONTENT_DIR,
	LEGAL_DOCUMENTS,
	LegalContentError,
	legalPage,
	loadLegalLibrary,
	parseLegalSource,
} from './documents.server'
import { renderMarkdown } from './markdown.server'

const dirs: string[] = []
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A copy of the shipped documents to break on purpose. */
function copyOfShipped(): string {
	const dir = mkdtempSync(join(tmpdir(), 'legal-'))
	dirs.push(dir)
	for (const name of readdirSync(LEGAL_CONTENT_DIR)) writeFileSync(join(dir, name), readFileSync(join(LEGAL_CONTENT_DIR, name)))
	return dir
}

test('every document exists in every language, with one version and date per document', () => {
	const library = loadLegalLibrary()
	for (const doc of LEGAL_DOCUMENTS) {
		const versions = new Set(LOCALE_CODES.map((lang) => `${library[doc][lang].version} ${library[doc][lang].updated}`))
		expect(versions.size, doc).toBe(1)
	}
	expect(readdirSync(LEGAL_CONTENT_DIR).filter((n) => n.endsWith('.md')).sort()).toEqual(
		LEGAL_DOCUMENTS.flatMap((doc) => LOCALE_CODES.map((lang) => `${doc}.${lang}.md`)).sort(),
	)
})

test('the shipped documents hold no raw HTML and each starts with the note for the operator to review it', () => {
	const library = loadLegalLibrary()
	for (const doc of LEGAL_DOCUMENTS) {
		for (const lang of LOCALE_CODES) {
			const { body } = library[doc][lang]
			expect(body, `${doc}.${lang}`).not.toMatch(/<\/?[a-z][\s\S]*?>/i)
			expect(body.trimStart().startsWith('> **'), `${doc}.${lang}`).toBe(true)
			// Links to our own pages stay in the document's language.
			for (const [, href] of body.matchAll(/\]\((\/[^)]*)\)/g)) expect(href, `${doc}.${lang}`).toMatch(new RegExp(`^/${lang}/`))
		}
	}
})

test('the shipped texts cover what the product does with coins, dares and cookies', () => {
	const terms = loadLegalLibrary().terms.en.body
	for (const topic of ['not refundable for cash', 'escrow', 'rejects the dare', 'session stops', 'fails', 'platform fee', 'forfeited', 'never win coins', '16 years', '18 years', 'Twitch, YouTube or Kick']) {
		expect(terms).toContain(topic)
	}
	const privacy = loadLegalLibrary().privacy.en.body
	for (const cookie of ['i18n_redirected', 'toast-session', 'auth_return_to', 'better-auth.', 'Consent cookies', 'PostHog']) expect(privacy).toContain(cookie)
})

test('the versions users accept are the terms and the creator agreement of the files', () => {
	const library = loadLegalLibrary()
	expect(currentDocumentVersions()).toEqual({
		terms_of_service: library.terms.en.version,
		creator_agreement: library['creator-agreement'].en.version,
	})
	expect(currentDocumentVersions().terms_of_service).toMatch(/^[A-Za-z0-9._-]{1,32}$/)
})

test('a missing language stops the loader with a message naming the file', () => {
	const dir = copyOfShipped()
	rmSync(join(dir, 'privacy.tr.md'))
	expect(() => loadLegalLibrary(dir)).toThrow(LegalContentError)
	expect(() => loadLegalLibrary(dir)).toThrow(/privacy\.tr\.md: missing/)
})

test('a version that differs between languages stops the loader', () => {
	const dir = copyOfShipped()
	const file = join(dir, 'terms.de.md')
	writeFileSync(file, readFileSync(file, 'utf8').replace(/^version: .*$/m, 'version: 2099-01-01'))
	expect(() => loadLegalLibrary(dir)).toThrow(/terms: every language must carry the same version/)
})

test('an unknown file, a bad header or an empty body is refused', () => {
	const dir = copyOfShipped()
	writeFileSync(join(dir, 'terms.fr.md'), '---\nversion: 1\nupdated: 2026-01-01\n---\nBonjour')
	expect(() => loadLegalLibrary(dir)).toThrow(/terms\.fr\.md: not a known document/)
	expect(() => parseLegalSource('# no front matter', 'x.md')).toThrow(/front matter/)
	expect(() => parseLegalSource('---\nversion: two words\nupdated: 2026-01-01\n---\ntext', 'x.md')).toThrow(/version/)
	expect(() => parseLegalSource('---\nversion: 1\nupdated: yesterday\n---\ntext', 'x.md')).toThrow(/updated/)
	expect(() => parseLegalSource('---\nversion: 1\nupdated: 2026-01-01\ntitle: x\n---\ntext', 'x.md')).toThrow(/unknown front matter key/)
	expect(() => parseLegalSource('---\nversion: 1\nupdated: 2026-01-01\n---\n  \n', 'x.md')).toThrow(/empty/)
	expect(parseLegalSource('---\nversion: "1.2"\nupdated: 2026-01-01\n---\nText', 'x.md')).toEqual({ version: '1.2', updated: '2026-01-01', body: 'Text' })
})

test('raw HTML and script links in a document are shown as text, never passed through', () => {
	const { html } = renderMarkdown(
		'## Hi\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [ok](https://example.com)',
	)
	expect(html).not.toMatch(/<script|<img|href="javascript:|href="data:/i)
	expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
	expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">ok</a>')
})

test('headings get unique anchors in every script and the second-level ones make the table of contents', () => {
	const { html, toc } = renderMarkdown('## 1. Çerezler ve Gizlilik\n\n### Detail\n\n## 2. Änderungen\n\n## 2. Änderungen')
	expect(toc).toEqual([
		{ id: '1-çerezler-ve-gizlilik', text: '1. Çerezler ve Gizlilik' },
		{ id: '2-änderungen', text: '2. Änderungen' },
		{ id: '2-änderungen-2', text: '2. Änderungen' },
	])
	expect(html).toContain('<h3 id="detail">Detail</h3>')
})

test('every page renders with its version, its date in the page language and a table of contents where it is long', () => {
	for (const doc of LEGAL_DOCUMENTS) {
		for (const lang of LOCALE_CODES) {
			const page = legalPage(doc, lang)
			expect(page.html.length, `${doc}.${lang}`).toBeGreaterThan(500)
			expect(page.version).toBe(currentVersionOf(doc))
		}
	}
	expect(legalPage('terms', 'de').updated).toMatch(/November 2026/)
	expect(legalPage('terms', 'tr').updated).toMatch(/Kasım 2026/)
	expect(legalPage('terms', 'en').toc.length).toBeGreaterThanOrEqual(6)
})

function currentVersionOf(doc: (typeof LEGAL_DOCUMENTS)[number]): string {
	return loadLegalLibrary()[doc].en.version
}
