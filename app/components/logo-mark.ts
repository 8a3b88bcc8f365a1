/**
 * Dareboost's mark, drawn on a 64×64 grid: a speech bubble (a dare, written
 * by the audience) holding a play button (the live stream), with a live dot
 * at its corner, on a violet-to-pink tile. One description feeds the header
 * logo (components/logo.tsx) and the icon files (scripts/icons.ts), so they
 * cannot drift apart.
 */
export const LOGO_MARK = {
	viewBox: '0 0 64 64',
	gradient: { from: '#7c3aed', to: '#db2777' },
	tile: { rx: 16 },
	/** The bubble, with its tail at the bottom left. */
	bubble: 'M21 12H43A9 9 0 0 1 52 21V33A9 9 0 0 1 43 42H30L18.5 51.5 21 42A9 9 0 0 1 12 33V21A9 9 0 0 1 21 12Z',
	bubbleFill: '#ffffff',
	/** The play button inside the bubble (rounded by its stroke). */
	play: 'M28 20.5V33.5L39 27Z',
	playFill: '#7c3aed',
	live: { cx: 51, cy: 13, r: 6.5, fill: '#ff4d6d', ring: '#ffffff', ringWidth: 3 },
} as const

/**
 * The mark as a standalone SVG document. `scale` shrinks the drawing inside a
 * full-bleed tile (maskable icons keep their content in the middle 80 %).
 */
export function logoMarkSvg({ size = 64, scale = 1, rounded = true }: { size?: number; scale?: number; rounded?: boolean } = {}): string {
	const m = LOGO_MARK
	const offset = (64 - 64 * scale) / 2
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="${m.viewBox}">`,
		`<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${m.gradient.from}"/><stop offset="1" stop-color="${m.gradient.to}"/></linearGradient></defs>`,
		`<rect width="64" height="64" rx="${rounded ? m.tile.rx : 0}" fill="url(#g)"/>`,
		`<g transform="translate(${offset} ${offset}) scale(${scale})">`,
		`<path d="${m.bubble}" fill="${m.bubbleFill}"/>`,
		`<path d="${m.play}" fill="${m.playFill}" stroke="${m.playFill}" stroke-width="3" stroke-linejoin="round"/>`,
		`<circle cx="${m.live.cx}" cy="${m.live.cy}" r="${m.live.r}" fill="${m.live.fill}" stroke="${m.live.ring}" stroke-width="${m.live.ringWidth}"/>`,
		`</g></svg>`,
	].join('')
}
