// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import { testI18n, Translated } from '#tests/support/components'
import { OVERLAY_PARTS, overlayOptions } from './options'
import { OVERLAY_OPTIONS_EXAMPLE, OverlayOptions } from './overlay-options'

afterEach(cleanup)

test('the creator’s panel lists a switch for every part of the overlay, in their language', async () => {
	const i18n = await testI18n('de')
	render(
		<Translated i18n={i18n}>
			<OverlayOptions />
		</Translated>,
	)
	expect(screen.getByText(i18n.t('overlay-show.options-title')).tagName).toBe('SUMMARY')
	const terms = screen.getAllByRole('term').map((dt) => dt.textContent)
	expect(terms).toEqual(OVERLAY_PARTS.map((p) => `&${p}=0`))
	for (const part of OVERLAY_PARTS) expect(screen.getByText(i18n.t(`overlay-show.option-${part}`))).toBeTruthy()
	// Every documented switch does what the list says.
	for (const term of terms) expect(Object.values(overlayOptions(new URLSearchParams(term!.slice(1)))).filter((on) => !on)).toHaveLength(1)
	expect(overlayOptions(new URLSearchParams(OVERLAY_OPTIONS_EXAMPLE.slice(1)))).toMatchObject({ vote: true, dares: true, countdown: true, alerts: false, top: false, join: false, qr: false })
})
