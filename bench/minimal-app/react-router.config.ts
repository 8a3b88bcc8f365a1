import type { Config } from '@react-router/dev/config'

/** The product's React Router settings (../../react-router.config.ts); the build goes where bench/boost.ts asks (a temporary folder). */
export default {
	ssr: true,
	future: {
		v8_middleware: true,
	},
	buildDirectory: process.env.MINIMAL_APP_BUILD_DIR ?? 'build',
} satisfies Config
