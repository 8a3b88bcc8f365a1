import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

/** A React Router app and nothing else: no custom server entry, no plugins of the product's. */
export default defineConfig({
	build: { target: 'es2022' },
	plugins: [reactRouter()],
})
