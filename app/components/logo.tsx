import { useId } from 'react'
import { LOGO_MARK as m } from './logo-mark'

/** The mark, inline (no request, sharp at any size). Decorative: the brand name next to it is the link's text. */
export function LogoMark({ className, size = 32 }: { className?: string; size?: number }) {
	const gradientId = useId()
	return (
		<svg className={className} width={size} height={size} viewBox={m.viewBox} aria-hidden="true" focusable="false">
			<defs>
				<linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
					<stop offset="0" stopColor={m.gradient.from} />
					<stop offset="1" stopColor={m.gradient.to} />
				</linearGradient>
			</defs>
			<rect width="64" height="64" rx={m.tile.rx} fill={`url(#${gradientId})`} />
			<path d={m.bubble} fill={m.bubbleFill} />
			<path d={m.play} fill={m.playFill} stroke={m.playFill} strokeWidth="3" strokeLinejoin="round" />
			<circle cx={m.live.cx} cy={m.live.cy} r={m.live.r} fill={m.live.fill} stroke={m.live.ring} strokeWidth={m.live.ringWidth} />
		</svg>
	)
}
