import { expect, test } from './support/test'
import { readyAccount } from './support/accounts'
import { expectToast } from './support/toasts'
import { jsOn, numberInput, openStartForm, twitchCreator } from './support/creators'
import { inOneMode, tr } from './support/i18n'

/**
 * Creators and live sessions end to end, with JavaScript on (the dialogs)
 * and off (the same forms as pages). Creators sign in with Twitch at the
 * loopback OpenID stand-in (tests/support/identity-providers.js), which
 * links their Twitch channel, as signing in with Twitch does for real.
 */

for (const [index, lang] of (['en', 'de'] as const).entries()) {
	test(`a creator accepts the agreement, starts a session with edge values, finds it on home and both URLs, and stops it (${lang})`, inOneMode(index), async ({ page }) => {
		const login = await twitchCreator(page, lang, 'live')
		const form = await openStartForm(page, lang)

		const title = `${'é'.repeat(130)} ${lang} edge`.slice(0, 140)
		await form.getByLabel(tr(lang, 'sessions.title'), { exact: true }).fill(title)
		await expect(form.getByRole('combobox', { name: tr(lang, 'sessions.channel') })).toHaveValue('twitch')
		// The lower edges, and free dares equal to the dares per viewer.
		for (const [key, value] of [
			['sessions.max-dares', '1'],
			['sessions.max-free-dares', '1'],
			['sessions.min-boost', '50'],
			['sessions.voting-duration', '30'],
		] as const) {
			await numberInput(form, lang, key).fill(value)
		}
		// The agreement is not accepted yet: the form asks for it from its first view, with the document to read.
		const box = form.getByRole('group', { name: tr(lang, 'sessions.agreement-title') })
		await expect(box.getByRole('link', { name: tr(lang, 'sessions.agreement-read') })).toHaveAttribute('href', `/${lang}/creator-agreement`)
		const agreement = box.getByRole('checkbox', { name: tr(lang, 'sessions.agreement-checkbox') })
		await expect(agreement).not.toBeChecked()
		if (jsOn()) {
			// Unticked, the form says so at the box and sends nothing.
			await form.getByRole('button', { name: tr(lang, 'sessions.submit') }).click()
			await expect(box.getByText(tr(lang, 'errors.error-creator-agreement-required'))).toBeVisible()
		} else {
			// Unticked, the browser does not send the form.
			await expect(agreement).toHaveAttribute('required', '')
		}
		// Ticked: one sending accepts it and starts the session.
		await agreement.check()
		await form.getByRole('button', { name: tr(lang, 'sessions.submit') }).click()

		await expect(page).toHaveURL(`/${lang}/twitch/${login}`)
		await expect(page.getByText(tr(lang, 'sessions.started'))).toBeVisible()
		await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
		await expect(page.getByText(tr(lang, 'sessions.rule-voting', { seconds: 30 }))).toBeVisible()
		await expect(page.getByText(tr(lang, 'sessions.rule-dares', { count: 1, free: 1 }))).toBeVisible()

		// On home, found by its channel.
		await page.goto(`/${lang}?q=${login.toUpperCase()}`)
		await expect(page.getByRole('link', { name: title })).toBeVisible()

		// By id, through the JSON API.
		const api = await page.request.get(`/api/session?platform=twitch&channel=${login}`)
		expect(api.status()).toBe(200)
		const { session } = (await api.json()) as { session: { id: string; status: string; minBoost: number } }
		expect(session).toMatchObject({ status: 'active', minBoost: 50 })
		await page.goto(`/${lang}/session/${session.id}`)
		await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()

		// The creator stops it (the button behind its confirmation: creator-on-stream.spec.ts).
		await page.getByText(tr(lang, 'sessions.stop-ask')).click()
		await page.getByRole('button', { name: tr(lang, 'sessions.stop-confirm-empty') }).click()
		await expect(page.getByText(tr(lang, 'sessions.stopped'))).toBeVisible()
		await expect(page.getByText(tr(lang, 'sessions.ended'), { exact: true })).toBeVisible()
		await page.goto(`/${lang}/twitch/${login}`)
		await expect(page.getByRole('status').getByText(tr(lang, 'sessions.not-live'))).toBeVisible()
		await page.goto(`/${lang}?q=${login}`)
		await expect(page.getByText(tr(lang, 'home.no-results', { query: login }))).toBeVisible()
	})
}

test('a signed-in viewer without a channel is told they must be a creator (es)', async ({ page }) => {
	const lang = 'es'
	await readyAccount(page, lang, 'viewer')
	await page.goto(`/${lang}`)
	const cta = page.getByRole('region', { name: tr(lang, 'home.cta-title') })
	if (jsOn()) {
		await cta.getByRole('button', { name: tr(lang, 'sessions.start') }).click()
		await expect(page.getByText(tr(lang, 'errors.error-not-a-creator'))).toBeVisible()
		await expect(page.getByRole('dialog')).toHaveCount(0)
	} else {
		await cta.getByRole('link', { name: tr(lang, 'sessions.start') }).click()
		await expect(page.getByRole('alert').getByRole('heading', { name: tr(lang, 'errors.error-not-a-creator') })).toBeVisible()
	}
})

test('a visitor on a live session sees how to join and loads the player only on request', async ({ page }) => {
	const lang = 'en'
	await page.goto(`/${lang}/twitch/mia_plays`)
	await expect(page.getByRole('heading', { name: tr(lang, 'sessions.join-title') })).toBeVisible()
	await expect(page.locator('iframe')).toHaveCount(0)
	await page.getByRole('button', { name: tr(lang, 'sessions.load-player', { platform: 'Twitch' }) }).click()
	const player = page.locator('iframe')
	await expect(player).toHaveAttribute('src', /^https:\/\/player\.twitch\.tv\/\?channel=mia_plays&parent=127\.0\.0\.1&muted=true$/)
	if (jsOn()) {
		await page.getByRole('button', { name: tr(lang, 'sessions.join-sign-in') }).click()
		await expect(page.getByRole('dialog')).toBeVisible()
	} else {
		await page.getByRole('link', { name: tr(lang, 'sessions.join-sign-in') }).click()
		await expect(page).toHaveURL(/\/en\/login\?redirectTo=/)
	}
})

// The fields in the real start-session form, from the keyboard; the field itself, in
// more cases and in Turkish, is number-field.keyboard.test.tsx's.
test('the number fields keep to their limits from the keyboard (tr)', async ({ page }) => {
	const lang = 'tr'
	await twitchCreator(page, lang, 'keys')
	const form = await openStartForm(page, lang)
	const minBoost = numberInput(form, lang, 'sessions.min-boost')
	if (!jsOn()) {
		// Without JavaScript: plain number inputs with the same limits, which the browser enforces.
		await expect(minBoost).toHaveAttribute('min', '50')
		await expect(minBoost).toHaveAttribute('max', '100000')
		await expect(minBoost).toHaveAttribute('step', '10')
		await expect(numberInput(form, lang, 'sessions.voting-duration')).toHaveAttribute('step', '5')
		return
	}
	const value = async () => (await minBoost.inputValue()).replace(/\D/g, '')
	await minBoost.focus()
	// React Aria's field takes over once reached for (it has a role description).
	await expect(minBoost).toHaveAttribute('aria-roledescription', /.+/)
	await expect(minBoost).toBeFocused()
	await page.keyboard.press('ArrowUp')
	expect(await value()).toBe('210')
	await page.keyboard.press('PageUp')
	expect(await value()).toBe('310')
	await page.keyboard.press('PageDown')
	await page.keyboard.press('ArrowDown')
	expect(await value()).toBe('200')
	await page.keyboard.press('Home')
	expect(await value()).toBe('50')
	await page.keyboard.press('ArrowDown')
	expect(await value()).toBe('50')
	await page.keyboard.press('End')
	expect(await value()).toBe('100000')
	// A letter is refused.
	await page.keyboard.press('End')
	await page.keyboard.type('a')
	expect(await value()).toBe('100000')
	// A value off the step snaps to it when the field is left.
	const voting = numberInput(form, lang, 'sessions.voting-duration')
	await voting.fill('33')
	await voting.blur()
	await expect(voting).toHaveValue('35')
	await minBoost.fill('57')
	await minBoost.blur()
	await expect(minBoost).toHaveValue('60')
	await minBoost.fill('10')
	await minBoost.blur()
	await expect(minBoost).toHaveValue('50')
})

test('the start form says what is wrong as soon as it is, and no longer (en)', async ({ page }) => {
	const lang = 'en'
	await twitchCreator(page, lang, 'msgs')
	const form = await openStartForm(page, lang)
	const submit = form.getByRole('button', { name: tr(lang, 'sessions.submit') })
	const maxDares = numberInput(form, lang, 'sessions.max-dares')
	const free = numberInput(form, lang, 'sessions.max-free-dares')
	const minBoost = numberInput(form, lang, 'sessions.min-boost')
	const aboveMax = form.getByText(tr(lang, 'validation.max-free-dares-above-max'))
	await maxDares.fill('1')
	await free.fill('9')
	if (!jsOn()) {
		// Without JavaScript the server's answer names it, with the values as sent.
		await form.getByLabel(tr(lang, 'sessions.title'), { exact: true }).fill('Messages')
		await form.getByRole('checkbox', { name: tr(lang, 'sessions.agreement-checkbox') }).check()
		await submit.click()
		await expect(aboveMax).toBeVisible()
		await expect(numberInput(form, lang, 'sessions.max-free-dares')).toHaveValue('9')
		await expect(page).toHaveURL(`/${lang}/start-session`)
		return
	}
	// Broken the moment the field is left, before any sending (the title still empty is not nagged about yet).
	await free.press('Tab')
	await expect(aboveMax).toBeVisible()
	await expect(free).toHaveValue('9')
	await expect(form.getByText(tr(lang, 'validation.title-required'))).toHaveCount(0)
	// Mended as it is typed.
	await maxDares.fill('10')
	await expect(aboveMax).toHaveCount(0)

	// A sending marks every field; from then on a message follows its value, and goes when leaving snaps the value right.
	await submit.click()
	await expect(form.getByText(tr(lang, 'validation.title-required'))).toBeVisible()
	const tooLow = form.getByText(tr(lang, 'validation.min-boost-min'))
	const offStep = form.getByText(tr(lang, 'validation.min-boost-step'))
	await minBoost.fill('4')
	await expect(tooLow).toBeVisible()
	await minBoost.fill('45')
	await minBoost.press('Tab')
	await expect(minBoost).toHaveValue('50')
	await expect(tooLow).toHaveCount(0)
	await minBoost.fill('55')
	await expect(offStep).toBeVisible()
	await minBoost.press('Tab')
	await expect(minBoost).toHaveValue('60')
	await expect(offStep).toHaveCount(0)
})

// docs/product.md §15.2: a field of money refuses; it never charges another amount than the one typed.
test('a boost below the minimum is refused as typed and sends nothing; the server refuses what gets past the form (en)', async ({ page }) => {
	const lang = 'en'
	await readyAccount(page, lang, 'boostfive')
	await page.goto(`/${lang}/twitch/mia_plays`)
	const boostButton = page.getByRole('button', { name: tr(lang, 'dares.boost'), exact: true })
	const card = page.locator('li.dare').filter({ has: boostButton }).first()
	const amount = numberInput(card, lang, 'dares.boost-amount')
	if (jsOn()) {
		const posts: string[] = []
		page.on('request', (request) => {
			if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith(`/${lang}/twitch/mia_plays`)) posts.push(request.url())
		})
		await amount.fill('5')
		await card.getByRole('button', { name: tr(lang, 'dares.boost'), exact: true }).click()
		// Kept as typed, not charged as 10: the field says why and keeps the focus.
		await expect(amount).toHaveValue('5')
		await expect(card.getByRole('alert')).toHaveText(tr(lang, 'number-field.boost-below-min', { min: '10' }))
		await expect(amount).toHaveAttribute('aria-invalid', 'true')
		await expect(amount).toBeFocused()
		expect(posts).toEqual([])
		// Right again: the reason goes as it is typed.
		await amount.fill('10')
		await expect(card.getByRole('alert')).toHaveCount(0)
		return
	}
	// Without JavaScript the browser's number input refuses it before sending...
	await expect(amount).toHaveAttribute('min', '10')
	await expect(amount).toHaveAttribute('step', '10')
	// ...and the server refuses a request that gets past it, with a toast.
	const form = card.locator('form.dare__boost')
	const hidden = async (name: string) => form.locator(`input[name="${name}"]`).inputValue()
	const response = await page.request.post(page.url(), {
		form: { sessionId: await hidden('sessionId'), dareId: await hidden('dareId'), key: await hidden('key'), intent: 'boost', amount: '5' },
		headers: { origin: new URL(page.url()).origin },
		maxRedirects: 0,
	})
	expect(response.status()).toBe(302)
	await page.goto(response.headers()['location']!)
	await expectToast(page, tr(lang, 'errors.error-invalid-amount'))
})

test('a number field typed into before React Aria arrives keeps the digits, and the focus, when it takes over (de)', { tag: '@js-only' }, async ({ page }) => {
	const lang = 'de'
	await twitchCreator(page, lang, 'slow')
	// A slow phone: React Aria's chunk comes a second and a half after the field is reached for.
	await page.route(/\/assets\/aria-number-field-[\w-]+\.js$/, async (route) => {
		await new Promise((resolve) => setTimeout(resolve, 1500))
		await route.continue()
	})
	const form = await openStartForm(page, lang)
	const minBoost = numberInput(form, lang, 'sessions.min-boost')
	await expect(minBoost).not.toHaveAttribute('aria-roledescription')
	await minBoost.fill('1200')
	await expect(minBoost).toHaveAttribute('aria-roledescription', /.+/)
	await expect(minBoost).toBeFocused()
	// German grouping, the digits kept; the next key goes on where the caret was.
	await expect(minBoost).toHaveValue('1.200')
	await page.keyboard.press('ArrowUp')
	await expect(minBoost).toHaveValue('1.210')
	// Every other number field of the form came along at once.
	await expect(numberInput(form, lang, 'sessions.voting-duration')).toHaveAttribute('aria-roledescription', /.+/)
})
