import { test as base, expect, type BrowserContext, type Page, type Request } from '@playwright/test'
import { DEMO_OVERLAY_KEY, DEMO_SESSIONS } from '../../app/db/seed.server'
import { tr } from './support/i18n'
import { readyAccount } from './support/accounts'
import { DECIDED_STORAGE_STATE, UNDECIDED_STORAGE_STATE } from './support/consent'
import { numberInput, startLiveSession, twitchCreator } from './support/creators'
import { expectToast } from './support/toasts'

/**
 * Cookie consent (docs/product.md §15.5, ADR 026): the banner is the
 * server's markup, there with the first paint (tests/e2e/phone.spec.ts);
 * with JavaScript its choice is written in the page and the footer opens
 * vanilla-cookieconsent's settings, without it its buttons are form posts to
 * /consent and the footer's link shows it again. Every test starts as a new
 * visitor. Analytics are configured on the e2e servers, with a PostHog
 * stand-in on loopback behind the relay (tests/support/analytics-upstream.js).
 */
const test = base.extend<object, object>({
	// PostHog drops events from browsers that say they are automated (the
	// user agent and navigator.webdriver); these tests look like a person's
	// Chrome so that what the relay forwards can be checked.
	userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
	launchOptions: [
		async ({ launchOptions }, use) => {
			await use({ ...launchOptions, args: [...(launchOptions.args ?? []), '--disable-blink-features=AutomationControlled'] })
		},
		{ scope: 'worker' },
	],
})
test.use({ storageState: UNDECIDED_STORAGE_STATE })

const NECESSARY = ['sign-in', 'preferences', 'notices']
const OPTIONAL = ['analytics', 'twitch', 'youtube', 'kick']
const ANALYTICS_KEY = 'phc_e2e_project_key'

async function consentCookies(context: BrowserContext) {
	const cookies = await context.cookies()
	return {
		given: cookies.find((c) => c.name === 'cookie_consent')?.value,
		ids: cookies.find((c) => c.name === 'cookie_consent_ids')?.value,
		posthog: cookies.find((c) => c.name === `ph_${ANALYTICS_KEY}_posthog`),
		expires: cookies.find((c) => c.name === 'cookie_consent')?.expires,
	}
}

function upstreamUrl(page: Page, path: string): string {
	const base = new URL(page.url())
	return `http://127.0.0.1:${Number(base.port) + 2000}${path}`
}

type Received = { method: string; path: string; headers: Record<string, string>; events: { event: string; properties: Record<string, unknown> }[] }

/** What the PostHog stand-in received from this browser (by its PostHog visitor id). */
async function receivedFor(page: Page, distinctId: string): Promise<Received[]> {
	const all = (await (await page.request.get(upstreamUrl(page, '/__received'))).json()) as Received[]
	return all.filter((r) => r.events.some((e) => e.properties.distinct_id === distinctId))
}

async function distinctIdOf(context: BrowserContext): Promise<string> {
	const cookie = (await consentCookies(context)).posthog
	expect(cookie, 'PostHog keeps its visitor id in its cookie').toBeDefined()
	return (JSON.parse(decodeURIComponent(cookie!.value)) as { distinct_id: string }).distinct_id
}

function footer(page: Page, lang: 'en' | 'de') {
	return page.getByRole('navigation', { name: tr(lang, 'footer.legal') })
}

/** Every request the page makes that is not for the app's own pages, data or assets. */
function watchRequests(page: Page) {
	const seen: Request[] = []
	page.on('request', (r) => seen.push(r))
	return {
		toRelay: () => seen.filter((r) => new URL(r.url()).pathname.startsWith('/ingress/')),
		offOrigin: () => seen.filter((r) => new URL(r.url()).host !== new URL(page.url()).host),
	}
}

// The banner taken by the page's script, and vanilla-cookieconsent's settings: only the projects with JavaScript run these (the tag; playwright.config.ts).
test.describe('with JavaScript', { tag: '@js-only' }, () => {
	// The settings, the analytics library and the players load under the
	// page's Content-Security-Policy without a single violation.
	const violations = new WeakMap<Page, string[]>()
	test.beforeEach(({ page }) => {
		const seen: string[] = []
		violations.set(page, seen)
		page.on('console', (message) => {
			if (/Content Security Policy/i.test(message.text())) seen.push(message.text())
		})
	})
	test.afterEach(({ page }) => {
		expect(violations.get(page) ?? []).toEqual([])
	})

	test('accept all (de): the cookies, the analytics script, and events through the relay only after consent; switching analytics off removes script and cookie', async ({
		page,
		context,
	}) => {
		const requests = watchRequests(page)
		await page.goto('/de/privacy')
		const banner = page.getByRole('region', { name: tr('de', 'consent.title') })
		await expect(banner).toBeVisible()
		// Undecided: nothing optional has loaded or been sent.
		await page.waitForTimeout(1000)
		expect(requests.toRelay()).toHaveLength(0)
		expect(requests.offOrigin()).toHaveLength(0)
		await expect(page.locator('script[data-cookie-entry]')).toHaveCount(0)
		expect((await consentCookies(context)).given).toBeUndefined()

		await banner.getByRole('button', { name: tr('de', 'consent.accept-all') }).click()
		await expect(banner).toBeHidden()
		const accepted = await consentCookies(context)
		expect(accepted.given).toBe('true')
		expect(accepted.ids?.split('~')).toEqual([...NECESSARY, ...OPTIONAL])
		// Kept for CONSENT_MAX_AGE_DAYS (default 182 days).
		expect(accepted.expires! - Date.now() / 1000).toBeGreaterThan(181 * 86_400)
		await expect(page.locator('script[data-cookie-entry="analytics"]')).toHaveCount(1)

		// Page views go to our relay, which forwards them to PostHog's stand-in without cookies or the visitor's address.
		await expect.poll(() => requests.toRelay().length).toBeGreaterThan(0)
		const distinctId = await distinctIdOf(context)
		await footer(page, 'de').getByRole('link', { name: tr('de', 'footer.terms') }).click()
		await expect(page).toHaveURL('/de/terms')
		await expect
			.poll(async () => (await receivedFor(page, distinctId)).flatMap((r) => r.events.map((e) => e.properties.$pathname)))
			.toEqual(expect.arrayContaining(['/de/privacy', '/de/terms']))
		const received = await receivedFor(page, distinctId)
		for (const request of received) {
			expect(request.path).toMatch(/^\/(e|i\/v0\/e|batch)\/?$/)
			expect(request.headers.cookie).toBeUndefined()
			expect(request.headers['x-forwarded-for']).toBeUndefined()
			for (const event of request.events) {
				expect(event.properties.$current_url).not.toMatch(/[?#]/)
				expect(event.properties.title).toBeUndefined()
			}
		}
		expect(requests.offOrigin()).toHaveLength(0)

		// The footer's control reopens the settings; analytics off.
		await page.getByRole('button', { name: tr('de', 'consent.settings-link') }).click()
		const settings = page.getByRole('dialog', { name: tr('de', 'consent.settings-title') })
		await expect(settings).toBeVisible()
		await settings.getByRole('checkbox', { name: tr('de', 'consent.entries.analytics.name') }).uncheck({ force: true })
		await settings.getByRole('button', { name: tr('de', 'consent.save') }).click()
		await expect(settings).toBeHidden()
		await expect(page.locator('script[data-cookie-entry="analytics"]')).toHaveCount(0)
		await expect.poll(async () => (await consentCookies(context)).posthog).toBeUndefined()
		expect((await consentCookies(context)).ids?.split('~')).toEqual([...NECESSARY, 'twitch', 'youtube', 'kick'])
		// Nothing more goes out.
		const before = requests.toRelay().length
		await footer(page, 'de').getByRole('link', { name: tr('de', 'footer.imprint') }).click()
		await expect(page).toHaveURL('/de/imprint')
		await page.waitForTimeout(1500)
		expect(requests.toRelay()).toHaveLength(before)

		// And on again: the script comes back.
		await page.getByRole('button', { name: tr('de', 'consent.settings-link') }).click()
		await settings.getByRole('checkbox', { name: tr('de', 'consent.entries.analytics.name') }).check({ force: true })
		await settings.getByRole('button', { name: tr('de', 'consent.save') }).click()
		await expect(page.locator('script[data-cookie-entry="analytics"]')).toHaveCount(1)
		expect((await consentCookies(context)).ids?.split('~')).toContain('analytics')
	})

	test('necessary only (en): declined, nothing optional loads, the relay is never called', async ({ page, context }) => {
		const requests = watchRequests(page)
		await page.goto('/en/twitch/mia_plays')
		const banner = page.getByRole('region', { name: tr('en', 'consent.title') })
		await banner.getByRole('button', { name: tr('en', 'consent.necessary-only') }).click()
		await expect(banner).toBeHidden()
		const cookies = await consentCookies(context)
		expect(cookies.given).toBe('true')
		expect(cookies.ids?.split('~')).toEqual(NECESSARY)
		await expect(page.locator('script[data-cookie-entry]')).toHaveCount(0)
		await expect(page.locator('iframe')).toHaveCount(0)
		await page.reload()
		await expect(page.getByRole('region', { name: tr('en', 'consent.title') })).toHaveCount(0)
		await page.waitForTimeout(1000)
		expect(requests.toRelay()).toHaveLength(0)
		expect(requests.offOrigin()).toHaveLength(0)
		// The relay itself refuses without the analytics choice in the cookies.
		const direct = await page.request.post('/ingress/e/', { data: '{}', headers: { origin: new URL(page.url()).origin } })
		expect(direct.status()).toBe(403)
	})

	test('a selection (en): partial, and the chosen player loads at once while another platform asks first', async ({ page, context }) => {
		await page.goto('/en/twitch/mia_plays')
		const banner = page.getByRole('region', { name: tr('en', 'consent.title') })
		await banner.getByText(tr('en', 'consent.choose')).click()
		await banner.getByRole('checkbox', { name: new RegExp(tr('en', 'consent.entries.twitch.name')) }).check()
		await banner.getByRole('button', { name: tr('en', 'consent.save') }).click()
		await expect(banner).toHaveCount(0)
		expect((await consentCookies(context)).ids?.split('~')).toEqual([...NECESSARY, 'twitch'])
		await expect(page.locator('iframe')).toHaveAttribute('src', /^https:\/\/player\.twitch\.tv\//)
		await expect(page.locator('script[data-cookie-entry]')).toHaveCount(0)

		// Kick is not allowed: its player asks, and allowing it adds kick to the choice.
		await page.goto('/en/kick/emre_live')
		await expect(page.locator('iframe')).toHaveCount(0)
		await page.getByRole('button', { name: tr('en', 'sessions.load-player', { platform: 'Kick' }) }).click()
		await expect(page.locator('iframe')).toHaveAttribute('src', /^https:\/\/player\.kick\.com\//)
		expect((await consentCookies(context)).ids?.split('~')).toEqual([...NECESSARY, 'twitch', 'kick'])

		// Switching Kick off in the settings takes the player out of the page.
		await page.getByRole('button', { name: tr('en', 'consent.settings-link') }).click()
		const settings = page.getByRole('dialog', { name: tr('en', 'consent.settings-title') })
		await settings.getByRole('checkbox', { name: tr('en', 'consent.entries.kick.name') }).uncheck({ force: true })
		await settings.getByRole('button', { name: tr('en', 'consent.save') }).click()
		await expect(page.locator('iframe')).toHaveCount(0)
		await expect(page.getByRole('button', { name: tr('en', 'sessions.load-player', { platform: 'Kick' }) })).toBeVisible()
	})

	test("the dares' key events (en): a dare created, a boost and a vote reach the relay with amounts and choices only", async ({ page, context, browser, baseURL }) => {
		test.setTimeout(150_000)
		const creator = await (await browser.newContext({ baseURL, storageState: DECIDED_STORAGE_STATE })).newPage()
		const login = await twitchCreator(creator, 'en', 'events')
		await startLiveSession(creator, 'en', `Events night ${login}`, {})
		const sessionPage = `/en/twitch/${login}`

		await page.goto('/en/terms')
		await page.getByRole('region', { name: tr('en', 'consent.title') }).getByRole('button', { name: tr('en', 'consent.accept-all') }).click()
		await readyAccount(page, 'en', 'events')
		await page.goto('/en/shop')
		await page.getByRole('button', { name: tr('en', 'shop.buy', { price: '€4.99' }) }).click()
		await expect(page.getByTestId('wallet-balance')).toHaveText(/500$/)
		// A slow phone: the analytics library arrives seconds after the page
		// (routing also turns the browser's cache off), so the viewer acts before
		// it has started, and the events must wait for it rather than be lost.
		await page.route(/\/assets\/module\.slim\.no-external-[\w-]+\.js$/, async (route) => {
			await new Promise((resolve) => setTimeout(resolve, 3000))
			await route.continue()
		})
		const description = `Juggle three oranges ${login}`
		await page.goto(sessionPage)
		await page.getByLabel(tr('en', 'dares.description')).fill(description)
		await page.getByRole('button', { name: tr('en', 'dares.create') }).click()
		await expectToast(page, tr('en', 'dares.created'))
		const card = page.getByRole('listitem').filter({ hasText: description })
		await numberInput(card, 'en', 'dares.boost-amount').fill('250')
		await card.getByRole('button', { name: tr('en', 'dares.boost'), exact: true }).click()
		await expectToast(page, tr('en', 'dares.boosted'))
		// Both happened before the library started; they reach the relay once it has.
		const distinctId = await distinctIdOf(context)
		const keyEvents = async () =>
			(await receivedFor(page, distinctId))
				.flatMap((r) => r.events)
				.filter((e) => ['dare-created', 'boost', 'vote'].includes(e.event))
				.map((e) => ({ event: e.event, own: Object.fromEntries(Object.entries(e.properties).filter(([key]) => !key.startsWith('$') && !['distinct_id', 'token'].includes(key))) }))
		await expect
			.poll(keyEvents)
			.toEqual([
				{ event: 'dare-created', own: { reward: 0, free: true } },
				{ event: 'boost', own: { amount: 250 } },
			])

		await creator.goto(sessionPage)
		const creatorCard = creator.getByRole('listitem').filter({ hasText: description })
		await creatorCard.getByRole('button', { name: tr('en', 'dares.accept') }).click()
		await expectToast(creator, tr('en', 'dares.accepted'))
		await creatorCard.getByRole('button', { name: tr('en', 'dares.start-voting') }).click()
		await expectToast(creator, tr('en', 'dares.voting-started'))

		await page.goto(sessionPage)
		await card.getByRole('button', { name: tr('en', 'dares.vote-no'), exact: true }).click()
		await expectToast(page, tr('en', 'dares.voted'))

		await expect
			.poll(keyEvents)
			.toEqual([
				{ event: 'dare-created', own: { reward: 0, free: true } },
				{ event: 'boost', own: { amount: 250 } },
				{ event: 'vote', own: { choice: 'no' } },
			])
		// Nothing the viewer wrote or who they are went out with them.
		const sent = JSON.stringify(await receivedFor(page, distinctId))
		expect(sent).not.toContain('Juggle')
		expect(sent).not.toContain('@')
	})
})

test('the OBS overlay never asks (nobody could answer on a stream), with or without JavaScript', async ({ page }) => {
	await page.goto(`/en/overlay/${DEMO_SESSIONS.miaLive.id}?key=${DEMO_OVERLAY_KEY}`)
	await page.waitForLoadState('networkidle')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO_SESSIONS.miaLive.title)
	await expect(page.getByRole('dialog')).toHaveCount(0)
	await expect(page.getByRole('region', { name: tr('en', 'consent.title') })).toHaveCount(0)
})

// The server-rendered banner: only the projects without JavaScript run these (the tag; playwright.config.ts).
test.describe('without JavaScript', { tag: '@nojs-only' }, () => {
	test('accept all (de): a form post sets both cookies and comes back to the page; the banner is gone', async ({ page, context }) => {
		await page.goto('/de/imprint')
		const banner = page.getByRole('region', { name: tr('de', 'consent.title') })
		await expect(banner).toBeVisible()
		await banner.getByRole('button', { name: tr('de', 'consent.accept-all') }).click()
		await expect(page).toHaveURL('/de/imprint')
		await expect(page.getByRole('region', { name: tr('de', 'consent.title') })).toHaveCount(0)
		const cookies = await consentCookies(context)
		expect(cookies.given).toBe('true')
		expect(cookies.ids?.split('~')).toEqual([...NECESSARY, ...OPTIONAL])
		// No script runs, so no analytics script is in the page and nothing is sent.
		await expect(page.locator('script[data-cookie-entry]')).toHaveCount(0)
		// The Twitch player is allowed: it is in the server's page.
		await page.goto('/de/twitch/mia_plays')
		await expect(page.locator('iframe')).toHaveAttribute('src', /^https:\/\/player\.twitch\.tv\//)
	})

	test('necessary only (en), then the footer link reopens the banner and a selection is saved (partial)', async ({ page, context }) => {
		await page.goto('/en/kick/emre_live')
		const banner = page.getByRole('region', { name: tr('en', 'consent.title') })
		await banner.getByRole('button', { name: tr('en', 'consent.necessary-only') }).click()
		await expect(page).toHaveURL('/en/kick/emre_live')
		expect((await consentCookies(context)).ids?.split('~')).toEqual(NECESSARY)
		await expect(page.locator('iframe')).toHaveCount(0)
		await expect(page.getByRole('region', { name: tr('en', 'consent.title') })).toHaveCount(0)

		await page.getByRole('link', { name: tr('en', 'consent.settings-link') }).click()
		const again = page.getByRole('region', { name: tr('en', 'consent.title') })
		await expect(again).toBeVisible()
		await expect(again.getByText(tr('en', 'consent.status-declined'))).toBeVisible()
		await again.getByRole('checkbox', { name: new RegExp(tr('en', 'consent.entries.kick.name')) }).check()
		await again.getByRole('button', { name: tr('en', 'consent.save') }).click()
		await expect(page).toHaveURL('/en/kick/emre_live')
		expect((await consentCookies(context)).ids?.split('~')).toEqual([...NECESSARY, 'kick'])
		await expect(page.locator('iframe')).toHaveAttribute('src', /^https:\/\/player\.kick\.com\//)
	})

	test("a player's prompt allows its platform only, and a crafted return path stays on this site", async ({ page, context }) => {
		await page.goto('/en/twitch/mia_plays')
		await page.getByRole('button', { name: tr('en', 'sessions.load-player', { platform: 'Twitch' }) }).click()
		await expect(page).toHaveURL('/en/twitch/mia_plays')
		await expect(page.locator('iframe')).toHaveAttribute('src', /^https:\/\/player\.twitch\.tv\//)
		expect((await consentCookies(context)).ids?.split('~')).toEqual([...NECESSARY, 'twitch'])

		const origin = new URL(page.url()).origin
		const answer = await page.request.post('/consent', {
			form: { choice: 'all', redirectTo: '//evil.example/x' },
			headers: { origin },
			maxRedirects: 0,
		})
		expect(answer.status()).toBe(303)
		expect(answer.headers().location).toBe('/')
		const crossSite = await page.request.post('/consent', { form: { choice: 'all' }, headers: { origin: 'https://evil.example' }, maxRedirects: 0 })
		expect(crossSite.status()).toBe(403)
	})
})
