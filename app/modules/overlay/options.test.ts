import { expect, test } from 'vitest'
import { OVERLAY_PARTS, overlayOptions } from './options'

const on = Object.fromEntries(OVERLAY_PARTS.map((p) => [p, true]))

test('every part shows unless the address turns it off (an address copied before the options shows everything)', () => {
	expect(overlayOptions(new URLSearchParams('key=abc'))).toEqual(on)
	expect(overlayOptions(new URLSearchParams('key=abc&alerts=0&countdown=false&top=OFF&join=no&qr=0'))).toEqual({
		...on,
		alerts: false,
		countdown: false,
		top: false,
		join: false,
		qr: false,
	})
	expect(overlayOptions(new URLSearchParams('vote=0&dares=0'))).toEqual({ ...on, vote: false, dares: false })
})

test('anything but an off value leaves a part on', () => {
	expect(overlayOptions(new URLSearchParams('alerts=1&qr=yes&top=&join=maybe'))).toEqual(on)
})
