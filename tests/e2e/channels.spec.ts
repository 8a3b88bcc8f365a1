import { randomBytes } from 'node:crypto'
import { expect, test, type Page } from './support/test'
import type { Lang } from './support/accounts'
import { twitchCreator } from './support/creators'
import { tr } from './support/i18n'

/**
 * Linking a YouTube or Kick channel through the platform's own OAuth (ADR
 * 037). The real platforms are outside this machine, so start-server.js points
 * the app at loopback stand-ins (tests/support/channel-platforms.js) that
 * insist on the real protocol (registered redirect URI, S256 PKCE, single-use
 * codes, the client secret); the browser goes to the stand-in's consent page,
 * names the channel its account runs, and allows or denies, like a creator
 * at YouTube or Kick. Runs with JavaScript on and off.
 */

type Platform = 'youtube' | 'kick'
const NAME: Record<Platform, string> = { youtube: 'YouTube', kick: 'Kick' }

/** A channel nobody else in this run has: a YouTube channel id, or a Kick slug. */
function freshChannel(platform: Platform) {
	const id = randomBytes(16).toString('base64url').slice(0, 22)
	return platform === 'youtube' ? `UC${id}` : `kick_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`
}

const channelsRegion = (page: Page, lang: Lang) => page.getByRole('region', { name: tr(lang, 'channels.title') })

/** On the settings page: "Connect my {platform} channel", then the platform's consent page. */
async function connect(page: Page, lang: Lang, platform: Platform, answer: { channel: string; decision: 'Allow' | 'Deny' }) {
	await page.goto(`/${lang}/settings`)
	await channelsRegion(page, lang)
		.getByRole('button', { name: tr(lang, 'channels.connect', { platform: tr(lang, `platforms.${platform}`) }) })
		.click()
	await expect(page.getByRole('heading', { name: `Allow Dareboost to see your ${NAME[platform]} channel?` })).toBeVisible()
	await page.getByLabel('Channel').fill(answer.channel)
	await page.getByRole('button', { name: answer.decision }).click()
}

for (const [lang, platform] of [
	['en', 'kick'],
	['tr', 'youtube'],
] as const) {
	test(`${lang}: a creator connects their ${platform} channel, sees it linked, and unlinks it`, async ({ page }) => {
		await twitchCreator(page, lang, `ch${platform}`)
		const channel = freshChannel(platform)
		await connect(page, lang, platform, { channel, decision: 'Allow' })
		await expect(page).toHaveURL(`/${lang}/settings`)
		await expect(page.getByText(tr(lang, 'channels.connected', { platform: tr(lang, `platforms.${platform}`) }))).toBeVisible()
		const region = channelsRegion(page, lang)
		await expect(region.getByText(channel, { exact: true })).toBeVisible()
		// Linked: no longer offered.
		await expect(region.getByRole('button', { name: tr(lang, 'channels.connect', { platform: tr(lang, `platforms.${platform}`) }) })).toHaveCount(0)

		await region.getByRole('button', { name: tr(lang, 'channels.unlink-label', { platform: tr(lang, `platforms.${platform}`), channel }) }).click()
		await expect(page.getByText(tr(lang, 'channels.unlinked'))).toBeVisible()
		await expect(region.getByText(channel, { exact: true })).toHaveCount(0)
	})
}

test('es: with Twitch sign-in configured, a creator who unlinked their Twitch channel links it again from settings', async ({ page }) => {
	const lang = 'es'
	const login = await twitchCreator(page, lang, 'chtw')
	await page.goto(`/${lang}/settings`)
	const region = channelsRegion(page, lang)
	await region.getByRole('button', { name: tr(lang, 'channels.unlink-label', { platform: 'Twitch', channel: login }) }).click()
	await expect(page.getByText(tr(lang, 'channels.unlinked'))).toBeVisible()
	await expect(region.getByText(login, { exact: true })).toHaveCount(0)
	// Offered because this site signs in with Twitch (tests/support/identity-providers.js); without it the
	// section names Twitch among the platforms to ask the operator for (linked-channels.test.tsx).
	await expect(region.getByText(tr(lang, 'channels.other-platforms', { platforms: 'Twitch' }))).toHaveCount(0)
	await region.getByRole('button', { name: tr(lang, 'channels.link-twitch') }).click()
	await expect(page.getByText(tr(lang, 'channels.linked'))).toBeVisible()
	await expect(region.getByText(login, { exact: true })).toBeVisible()
	await expect(region.getByRole('button', { name: tr(lang, 'channels.link-twitch') })).toHaveCount(0)
})

test('de: saying no on the platform, or an account without a channel, links nothing and says why', async ({ page }) => {
	const lang = 'de'
	await twitchCreator(page, lang, 'chno')
	const channel = freshChannel('kick')
	await connect(page, lang, 'kick', { channel, decision: 'Deny' })
	await expect(page).toHaveURL(`/${lang}/settings`)
	await expect(page.getByText(tr(lang, 'channels.connect-cancelled'))).toBeVisible()
	await expect(channelsRegion(page, lang).getByText(channel, { exact: true })).toHaveCount(0)

	await connect(page, lang, 'youtube', { channel: '', decision: 'Allow' })
	await expect(page.getByText(tr(lang, 'errors.error-no-channel-found', { platform: 'YouTube' }))).toBeVisible()
	await expect(channelsRegion(page, lang).getByRole('button', { name: tr(lang, 'channels.connect', { platform: 'YouTube' }) })).toBeVisible()
})

test('es: a channel another creator has linked stays theirs', async ({ page, browser }) => {
	const lang = 'es'
	const channel = freshChannel('kick')
	await twitchCreator(page, lang, 'chfirst')
	await connect(page, lang, 'kick', { channel, decision: 'Allow' })
	await expect(channelsRegion(page, lang).getByText(channel, { exact: true })).toBeVisible()

	const other = await browser.newPage()
	try {
		await twitchCreator(other, lang, 'chsecond')
		await connect(other, lang, 'kick', { channel, decision: 'Allow' })
		await expect(other.getByText(tr(lang, 'errors.error-channel-taken'))).toBeVisible()
		await expect(channelsRegion(other, lang).getByText(channel, { exact: true })).toHaveCount(0)
	} finally {
		await other.close()
	}
})

/**
 * Walks the flow by hand up to the platform's answer, without delivering it:
 * the app's connect POST (in `page`'s cookie jar, which keeps the flow's
 * cookie), then the stand-in's consent. Returns the callback URL the
 * platform would send the browser to.
 */
async function answerWithoutDelivering(page: Page, lang: Lang, platform: Platform, channel: string) {
	const origin = new URL(page.url()).origin
	const start = await page.request.post(`/${lang}/settings/channels`, {
		form: { intent: 'connect', platform, redirectTo: `/${lang}/settings` },
		headers: { origin },
		maxRedirects: 0,
	})
	expect(start.status()).toBe(302)
	const authorize = new URL(start.headers()['location']!)
	const consent = await page.request.post(`${authorize.origin}/oauth/authorize`, {
		form: { ...Object.fromEntries(authorize.searchParams), channel, decision: 'allow' },
		maxRedirects: 0,
	})
	expect(consent.status()).toBe(302)
	return consent.headers()['location']!
}

test('attack: a callback with a forged state, carried to another account, or replayed links nothing @js-only', async ({ page, browser }) => {
	const lang = 'en'
	await twitchCreator(page, lang, 'chatk')
	const region = channelsRegion(page, lang)
	const channel = freshChannel('kick')

	// A forged state: the answer does not belong to this browser's flow.
	const forged = new URL(await answerWithoutDelivering(page, lang, 'kick', channel))
	forged.searchParams.set('state', 'forged-state-forged-state-forged')
	await page.goto(forged.toString())
	await expect(page.getByText(tr(lang, 'errors.error-channel-connect-failed'))).toBeVisible()
	await page.goto(`/${lang}/settings`)
	await expect(region.getByText(channel, { exact: true })).toHaveCount(0)

	// A genuine answer, opened by someone else signed in elsewhere: nothing links for them.
	const stolen = await answerWithoutDelivering(page, lang, 'kick', channel)
	const thief = await browser.newPage()
	try {
		await twitchCreator(thief, lang, 'chthief')
		await thief.goto(stolen)
		await expect(thief.getByText(tr(lang, 'errors.error-channel-connect-failed'))).toBeVisible()
		await thief.goto(`/${lang}/settings`)
		await expect(channelsRegion(thief, lang).getByText(channel, { exact: true })).toHaveCount(0)
	} finally {
		await thief.close()
	}

	// The owner's own answer links, once; the same callback again links nothing more and says so.
	const own = await answerWithoutDelivering(page, lang, 'kick', channel)
	await page.goto(own)
	await expect(page).toHaveURL(`/${lang}/settings`)
	await expect(page.getByText(tr(lang, 'channels.connected', { platform: 'Kick' }))).toBeVisible()
	await expect(region.getByText(channel, { exact: true })).toBeVisible()
	await page.goto(own)
	await expect(page.getByText(tr(lang, 'errors.error-channel-connect-failed'))).toBeVisible()
	await expect(region.getByText(channel, { exact: true })).toBeVisible()
})
