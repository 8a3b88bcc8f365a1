import { expect, test } from './support/test'
import { DEMO_OVERLAY_KEY, DEMO_SESSIONS } from '../../app/db/seed.server'
import { readyAccount, type Lang } from './support/accounts'
import { accessibilityViolations } from './support/axe'
import { DECIDED_STORAGE_STATE } from './support/consent'
import { jsOn, numberInput, startLiveSession, twitchCreator } from './support/creators'
import { tr } from './support/i18n'
import { expectToast } from './support/toasts'
import type { Page } from './support/test'

/**
 * The OBS overlay (issue "Dares", docs/product.md §5.7): the creator copies its address
 * from their session page; it opens without signing in only with the key,
 * shows the running vote with a large countdown, the top dares, the top
 * boosters and where to join (address and QR code) with no site around them,
 * announces new dares, boosts and results (with JavaScript), hides each part
 * the address turns off, and a new address turns the old one off. With
 * JavaScript on and off.
 */
const live = DEMO_SESSIONS.miaLive
const demoOverlay = (lang: Lang, query = '') => `/${lang}/overlay/${live.id}?key=${DEMO_OVERLAY_KEY}${query}`
const region = (page: Page, lang: Lang) => page.getByRole('region', { name: tr(lang, 'pages.overlay.title') })

test('the demo overlay: the top dares, nothing else, and only with its key', async ({ page, context }) => {
	await context.clearCookies()
	await page.goto(demoOverlay('de'))
	const overlay = region(page, 'de')
	// The open and accepted demo dares, most coins first (the demo vote may have ended by now).
	const dares = overlay.getByRole('list', { name: tr('de', 'overlay-show.dares-label') })
	await expect(dares.getByRole('listitem')).toHaveCount(2)
	await expect(dares.getByRole('listitem').first()).toContainText('Read the next donation message in a pirate voice')
	// The session's top boosters (other specs may boost in the demo session too: who leads may change).
	const boosters = overlay.getByRole('list', { name: tr('de', 'overlay-show.top-title') })
	await expect(boosters.getByRole('listitem')).toHaveCount(3)
	await expect(boosters).toContainText('lucia')
	// Where to join: the channel's page, as text and as a QR code.
	await expect(overlay.getByText(`/de/${live.platform}/${live.channel}`)).toBeVisible()
	await expect(overlay.getByRole('img', { name: tr('de', 'overlay-show.qr-label') })).toBeVisible()
	// Without JavaScript the page's own refresh could cut axe's run short.
	if (jsOn()) expect(await accessibilityViolations(page)).toEqual([])
	// No site chrome, no controls.
	await expect(page.getByRole('banner')).toHaveCount(0)
	await expect(page.getByRole('contentinfo')).toHaveCount(0)
	await expect(page.getByRole('button')).toHaveCount(0)
	expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgba(0, 0, 0, 0)')

	// Asked beside the page, not by navigating it: without JavaScript its own refresh could cut a navigation short.
	for (const query of ['', '?key=', `?key=${'0'.repeat(64)}`, `?key=${DEMO_OVERLAY_KEY.toUpperCase()}`]) {
		expect((await page.request.get(`/de/overlay/${live.id}${query}`)).status(), query).toBe(404)
	}
	// An address that names no session, with a key of the right shape: 404 too, not an error.
	for (const id of ['not-a-session', '00000000-0000-4000-8000-000000000000']) {
		expect((await page.request.get(`/de/overlay/${id}?key=${DEMO_OVERLAY_KEY}`)).status(), id).toBe(404)
	}
})

test('every part can be turned off in the address', async ({ page }) => {
	await page.goto(demoOverlay('en', '&alerts=0&countdown=0&top=0&join=0&qr=0&vote=0&dares=0'))
	const overlay = region(page, 'en')
	await expect(overlay).toBeAttached()
	for (const role of ['list', 'timer', 'img', 'status'] as const) await expect(overlay.getByRole(role)).toHaveCount(0)
	// Nothing but the session's title, for screen readers.
	await expect(overlay).toHaveText(live.title)

	// One off, the rest on.
	await page.goto(demoOverlay('en', '&qr=0'))
	await expect(region(page, 'en').getByRole('img')).toHaveCount(0)
	await expect(region(page, 'en').getByText(`/en/${live.platform}/${live.channel}`)).toBeVisible()
})

test('alerts do not move for someone who asked for reduced motion, and still show @js-only', async ({ page }) => {
	await page.goto(demoOverlay('en'))
	// An alert as the page draws one (the demo's data announces nothing at load).
	const animation = () =>
		page.evaluate(() => {
			const alert = document.createElement('div')
			alert.className = 'overlay__alert overlay__alert--boost'
			alert.textContent = '+100'
			document.querySelector('.overlay__alerts')!.append(alert)
			const style = getComputedStyle(alert)
			const seen = { name: style.animationName, display: style.display, visibility: style.visibility }
			alert.remove()
			return seen
		})
	expect(await animation()).toEqual({ name: 'overlay-alert-in', display: 'block', visibility: 'visible' })
	await page.emulateMedia({ reducedMotion: 'reduce' })
	expect(await animation()).toEqual({ name: 'none', display: 'block', visibility: 'visible' })
})

test('the creator copies the overlay address, OBS shows what the audience does; a new address turns the old one off', async ({ page, browser, baseURL }) => {
	test.setTimeout(180_000)
	const lang = jsOn() ? 'en' : 'de'
	const login = await twitchCreator(page, lang, 'obs')
	await startLiveSession(page, lang, `Overlay night ${login}`, { 'sessions.min-boost': '100', 'sessions.voting-duration': '30' })
	const panel = page.getByRole('region', { name: tr(lang, 'overlay.card-title') })
	const address = panel.getByRole('textbox')
	const first = await address.inputValue()
	expect(first).toMatch(new RegExp(`/${lang}/overlay/[0-9a-f-]{36}\\?key=[0-9a-f]{64}$`))

	// OBS: no cookies, no sign-in. Nothing runs yet: where to dare.
	const obs = await (await browser.newContext({ baseURL, javaScriptEnabled: jsOn() })).newPage()
	expect((await obs.goto(first))?.status()).toBe(200)
	const overlay = region(obs, lang)
	const channelPage = `/${lang}/twitch/${login}`
	await expect(overlay.getByText(tr(lang, 'overlay.empty', { address: `${new URL(baseURL!).host}${channelPage}` }))).toBeVisible()
	await expect(overlay.getByText(channelPage, { exact: false }).last()).toBeVisible()
	await expect(overlay.getByRole('img', { name: tr(lang, 'overlay-show.qr-label') })).toBeVisible()
	await expect(overlay.getByRole('list', { name: tr(lang, 'overlay-show.top-title') })).toHaveCount(0)
	const alerts = overlay.getByRole('status', { name: tr(lang, 'overlay-show.alerts-label') })

	// A viewer dares with a reward: announced (with JavaScript), and they lead the boosters.
	const viewer = await (await browser.newContext({ baseURL, javaScriptEnabled: jsOn(), storageState: DECIDED_STORAGE_STATE })).newPage()
	const { username } = await readyAccount(viewer, lang, 'obsviewer')
	await viewer.goto(`/${lang}/shop`)
	await viewer.getByRole('button', { name: tr(lang, 'shop.buy', { price: lang === 'de' ? '4,99 €' : '€4.99' }) }).click()
	await expect(viewer.getByTestId('wallet-balance')).toHaveText(/500$/)
	await viewer.goto(channelPage)
	await viewer.getByLabel(tr(lang, 'dares.description')).fill('Sing with a cat filter')
	await viewer.getByLabel(tr(lang, 'dares.reward')).fill('200')
	await viewer.getByRole('button', { name: tr(lang, 'dares.create') }).click()
	await expectToast(viewer, tr(lang, 'dares.created'))
	if (jsOn()) {
		await expect(alerts).toContainText(tr(lang, 'overlay-show.alert-dare'))
		await expect(alerts).toContainText('Sing with a cat filter')
		// Gone after its time.
		await expect(alerts).toHaveText('', { timeout: 15_000 })
	}
	// Live with JavaScript (read again a few seconds after coins moved); without, the overlay reloads itself every 10 seconds.
	const boosters = overlay.getByRole('list', { name: tr(lang, 'overlay-show.top-title') })
	await expect(boosters).toContainText(username, { timeout: 25_000 })

	// A boost: the dare and the coins added, never who boosted (nothing about a booster travels on the shared topic).
	const card = viewer.getByRole('listitem').filter({ hasText: 'Sing with a cat filter' })
	await numberInput(card, lang, 'dares.boost-amount').fill('100')
	await card.getByRole('button', { name: tr(lang, 'dares.boost'), exact: true }).click()
	await expectToast(viewer, tr(lang, 'dares.boosted'))
	if (jsOn()) {
		await expect(alerts).toContainText('+100')
		await expect(alerts).toContainText('Sing with a cat filter')
		await expect(alerts).not.toContainText(username)
	}
	await expect(boosters).toContainText('◎ 300', { timeout: 25_000 })

	// The creator starts the vote: the overlay shows it with its large countdown.
	await page.goto(channelPage)
	const creatorCard = page.getByRole('listitem').filter({ hasText: 'Sing with a cat filter' })
	await creatorCard.getByRole('button', { name: tr(lang, 'dares.accept') }).click()
	await expectToast(page, tr(lang, 'dares.accepted'))
	await creatorCard.getByRole('button', { name: tr(lang, 'dares.start-voting') }).click()
	await expectToast(page, tr(lang, 'dares.voting-started'))
	await expect(overlay.getByText(tr(lang, 'overlay.vote'))).toBeVisible({ timeout: 25_000 })
	await expect(overlay.getByText('Sing with a cat filter')).toBeVisible()
	await expect(overlay.getByRole('timer', { name: tr(lang, 'overlay-show.countdown-label') })).toHaveText(/^0:[0-3]\d$/)

	if (jsOn()) {
		// The viewer says done; at the vote's end the result is announced.
		await viewer.goto(channelPage)
		await viewer.getByRole('listitem').filter({ hasText: 'Sing with a cat filter' }).getByRole('button', { name: tr(lang, 'dares.vote-yes'), exact: true }).click()
		await expectToast(viewer, tr(lang, 'dares.voted'))
		await expect(alerts).toContainText(tr(lang, 'overlay-show.alert-completed'), { timeout: 45_000 })
		await expect(alerts).toContainText(tr(lang, 'overlay-show.alert-completed-text', { coins: '◎ 300' }))
		await expect(overlay.getByRole('timer')).toHaveCount(0)
	}

	await panel.getByRole('button', { name: tr(lang, 'overlay.regenerate') }).click()
	await expectToast(page, tr(lang, 'overlay.regenerated'))
	await expect(address).not.toHaveValue(first)
	const second = await address.inputValue()
	expect((await obs.request.get(first)).status()).toBe(404)
	expect((await obs.request.get(second)).status()).toBe(200)
})

test('a viewer of the session page sees no overlay address', async ({ page }) => {
	await page.goto(`/en/${live.platform}/${live.channel}`)
	await expect(page.getByRole('region', { name: tr('en', 'overlay.card-title') })).toHaveCount(0)
	expect(await page.content()).not.toContain(DEMO_OVERLAY_KEY)
})
