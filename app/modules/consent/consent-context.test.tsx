import { createInstance } from 'i18next'
import { renderToString } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { TranslationProvider } from '#app/i18n/translation'
import { createRoutesStub } from 'react-router'
import { expect, test } from 'vitest'
import { resources } from '#locales/index'
import { ConsentProvider, CookieBanner } from './consent-context'
import { UNDECIDED, type ConsentConfig, type ConsentState } from './entries'

/**
 * The banner as the server renders it: what every browser paints first, and
 * all a browser without JavaScript gets (the e2e suite clicks through it;
 * here the operator's forced modal and the markup's details, which need
 * another server configuration there). With JavaScript the same markup takes
 * the choice in the page: cookie-banner.test.tsx.
 */
const i18n = createInstance()
await i18n.use(initReactI18next).init({ lng: 'de', resources, interpolation: { escapeValue: false } })

const CONFIG: ConsentConfig = { analytics: true, maxAgeDays: 182, forceModal: false }

function render(state: ConsentState, config: ConsentConfig, url: string, showSettings = false): string {
	const Stub = createRoutesStub([
		{
			path: '/:lang/*',
			Component: () => (
				<ConsentProvider state={state} config={config}>
					<CookieBanner showSettings={showSettings} />
				</ConsentProvider>
			),
		},
	])
	return renderToString(
		<I18nextProvider i18n={i18n}>
			<TranslationProvider>
				<Stub initialEntries={[url]} />
			</TranslationProvider>
		</I18nextProvider>,
	)
}

test('undecided: the banner in the page itself (not in <noscript>: it shows with the first paint), a form post to /consent that comes back to this page, nothing optional checked', () => {
	const html = render(UNDECIDED, CONFIG, '/de/twitch/mia_plays?x=1')
	expect(html).toMatch(/^<div class="consent-banner"><form [^>]*action="\/consent" method="post"/)
	expect(html).not.toContain('<noscript>')
	expect(html).toContain('role="region"')
	expect(html).toContain('<input type="hidden" name="redirectTo" value="/de/twitch/mia_plays?x=1"/>')
	expect(html).toMatch(/<button type="submit" value="all" [^>]*name="choice">/)
	expect(html).toMatch(/<button type="submit" value="necessary" [^>]*name="choice">/)
	expect(html).toMatch(/<button type="submit" value="custom" [^>]*name="choice">/)
	expect(html).toContain('Alle akzeptieren')
	expect(html).toContain('href="/de/privacy"')
	for (const id of ['analytics', 'twitch', 'youtube', 'kick']) expect(html).toContain(`name="entry" value="${id}"`)
	expect(html).not.toContain('checked=""')
	expect(html).not.toMatch(/<details[^>]*open/)
})

test('the operator forces a choice: a modal dialog over the whole page, until the visitor has chosen', () => {
	const forced = render(UNDECIDED, { ...CONFIG, forceModal: true }, '/de')
	expect(forced).toContain('class="consent-banner consent-banner--forced"')
	expect(forced).toContain('role="dialog"')
	expect(forced).toContain('aria-modal="true"')
	// After a choice the footer's link opens it as a plain region again.
	const reopened = render({ given: true, enabled: [] }, { ...CONFIG, forceModal: true }, '/de?cookie-settings=1', true)
	expect(reopened).not.toContain('consent-banner--forced')
	expect(reopened).toContain('role="region"')
})

test('decided: no banner, unless the footer asks; then the current choice is checked, its status shown, and the way back drops the query', () => {
	expect(render({ given: true, enabled: ['twitch'] }, CONFIG, '/de/imprint')).toBe('')
	const html = render({ given: true, enabled: ['twitch'] }, CONFIG, '/de/imprint?cookie-settings=1&a=b', true)
	expect(html).toMatch(/<details class="consent-banner__settings" open="">/)
	expect(html).toMatch(/checked="" value="twitch"|value="twitch" checked=""/)
	expect(html.match(/checked=""/g)).toHaveLength(1)
	expect(html).toContain('Du hast einen Teil der optionalen Cookies erlaubt.')
	expect(html).toContain('value="/de/imprint?a=b"')
})

test('without analytics configured there is no analytics entry', () => {
	const html = render(UNDECIDED, { ...CONFIG, analytics: false }, '/de')
	expect(html).not.toContain('value="analytics"')
	expect(html).toContain('value="kick"')
})

test('the OBS overlay never shows the banner (a stream would show it to everyone)', () => {
	expect(render(UNDECIDED, CONFIG, '/de/overlay/de300000-0000-4000-8000-00000000a001')).toBe('')
	expect(render(UNDECIDED, CONFIG, '/de/session/de300000-0000-4000-8000-00000000a001')).toContain('class="consent-banner"')
})
