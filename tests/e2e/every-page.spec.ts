import { expect, test, type Page, type TestInfo } from './support/test'
import { DEMO_SESSIONS, DEMO_USERS } from '../../app/db/seed.server'
import { readyAccount, signInDemo } from './support/accounts'
import { accessibilityViolations } from './support/axe'
import { LANGS } from './support/i18n'
import { PUBLIC_PAGES } from './support/pages'

/**
 * Every page in every language, signed out and signed in, in one pass per
 * language (each page loaded once): nothing wider than the screen at a
 * 390 px phone and a 1,440 px screen (no sideways scrolling: the wording is
 * what differs between languages). In English and German, the languages
 * with the shortest and the longest words, also no serious or critical
 * violation of WCAG 2.1 A and AA (axe-core: its rules look at roles, names,
 * contrast and structure, which are the same in every language, and the
 * translations' completeness is locales/'s test), and a full-page
 * screenshot at both widths, kept as test artifacts
 * (test-results/every-page-*) for a person to look through. The cookie
 * banner's accessibility is a11y.spec.ts's; layout shift while a page
 * hydrates is layout-shift.spec.ts's. The server renders for any width and
 * the layout is CSS alone, so a page is measured at the second width by
 * resizing it rather than loading it again.
 */
const ended = DEMO_SESSIONS.luciaEnded
const live = DEMO_SESSIONS.miaLive

// The public pages, the last session of a channel that is no longer live, and an error page.
const PAGES = [...PUBLIC_PAGES.map(({ path }) => path), `/${ended.platform}/${ended.channel}`, '/no-such-page']
// The session page signed in shows the dares' forms (create, boost, vote).
const SIGNED_IN_PAGES = ['/settings', '/shop', '/start-session', `/session/${live.id}`]
// A creator's own pages: the live session with their controls and sessions list, an ended one's recap, their earnings.
const CREATOR_PAGES = [`/session/${live.id}`, `/session/${DEMO_SESSIONS.miaEnded.id}`, '/earnings']
/** The languages whose pages axe checks and the screenshots show. */
const LOOKED_AT = new Set(['en', 'de'])

/** Loads the page at 390 px, then checks and shoots it there and at 1,440 px; returns what is wrong with it. */
async function check(page: Page, info: TestInfo, lang: string, path: string, tag = ''): Promise<string[]> {
	const found: string[] = []
	await page.setViewportSize({ width: 390, height: 900 })
	const response = await page.goto(`/${lang}${path}`)
	expect(response?.status(), path).toBeLessThan(path === '/no-such-page' ? 500 : 400)
	// The page's script has taken over (support/test.ts); the text is drawn in its own fonts.
	await page.evaluate(() => document.fonts.ready.then(() => undefined))
	for (const width of [390, 1440]) {
		await page.setViewportSize({ width, height: 900 })
		const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
		if (overflow > 0) found.push(`/${lang}${path} at ${width} px scrolls sideways by ${overflow} px`)
		if (!LOOKED_AT.has(lang)) continue
		if (width === 1440) found.push(...(await accessibilityViolations(page)))
		const name = `${lang}${path.replace(/[/?=&%]+/g, '_') || '_home'}${tag}-${width}.png`
		await page.screenshot({ path: info.outputPath(name), fullPage: true })
	}
	return found
}

for (const lang of LANGS) {
	test(`${lang}: every page`, async ({ page }, info) => {
		test.setTimeout(180_000)
		const found: string[] = []
		for (const path of PAGES) found.push(...(await check(page, info, lang, path)))
		expect(found).toEqual([])
	})
}

test('signed in: the signed-in pages in every language', async ({ page }, info) => {
	test.setTimeout(180_000)
	await readyAccount(page, 'en', 'pages')
	const found: string[] = []
	for (const lang of LANGS) for (const path of SIGNED_IN_PAGES) found.push(...(await check(page, info, lang, path, '-signed-in')))
	expect(found).toEqual([])
})

test('a creator: their own pages in every language', async ({ page }, info) => {
	test.setTimeout(180_000)
	await signInDemo(page, 'en', DEMO_USERS[live.creator].email)
	// The sign-in's toast shows on the next page: not on one axe checks while the toast fades in.
	await page.goto('/en/terms')
	const found: string[] = []
	for (const lang of LANGS) for (const path of CREATOR_PAGES) found.push(...(await check(page, info, lang, path, '-creator')))
	expect(found).toEqual([])
})
