/**
 * What the OBS overlay shows, chosen in its address: every part is on
 * unless its parameter says off (`?key=…&alerts=0&qr=0`), so an address
 * copied before these existed shows everything. Documented for the creator
 * by overlay-options.tsx, on their session page.
 */
export const OVERLAY_PARTS = ['alerts', 'vote', 'countdown', 'dares', 'top', 'join', 'qr'] as const

export type OverlayPart = (typeof OVERLAY_PARTS)[number]

export type OverlayOptions = Record<OverlayPart, boolean>

/** Values that turn a part off; anything else (or nothing) leaves it on. */
const OFF: ReadonlySet<string> = new Set(['0', 'false', 'off', 'no'])

export function overlayOptions(search: URLSearchParams): OverlayOptions {
	const options = {} as OverlayOptions
	for (const part of OVERLAY_PARTS) {
		const value = search.get(part)
		options[part] = value === null || !OFF.has(value.trim().toLowerCase())
	}
	return options
}
