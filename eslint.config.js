import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
	{ ignores: ['build/**', '.react-router/**', '.data/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', '.ci/tmp/**', '.scratch*'] },
	js.configs.recommended,
	...tseslint.configs.recommended,
	{
		files: ['**/*.{ts,tsx,js}'],
		languageOptions: { globals: { ...globals.node, ...globals.browser } },
		plugins: { 'react-hooks': reactHooks },
		rules: {
			...reactHooks.configs.recommended.rules,
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-restricted-syntax': [
				'error',
				{
					selector: "MemberExpression[object.name='process'][property.name='env']",
					message: 'Read settings through getEnv() (app/env.server.ts), parsed once at boot.',
				},
			],
		},
	},
	{
		// Routes, components and modules use platform.accounts (the account
		// module's contract, app/modules/account/types.ts), never a backend's
		// internals: only the platform (app/platform/index.server.ts) picks one
		// (docs/decisions/011-account-module.md).
		files: ['app/routes/**', 'app/components/**', 'app/modules/**', 'app/root.tsx', 'app/root-data*.ts'],
		ignores: ['app/modules/account/backends/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{
							group: ['#app/modules/account/backends/*', '**/account/backends/*', '**/backends/better-auth/*', '**/backends/supabase/*'],
							message: 'Use platform.accounts (app/modules/account/types.ts); the backends are internals.',
						},
					],
				},
			],
		},
	},
	{
		files: ['app/modules/account/backends/better-auth/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['#app/modules/account/backends/supabase/*', '**/backends/supabase/*', '../supabase/*'], message: 'The two backends never import each other.' },
					],
				},
			],
		},
	},
	{
		files: ['app/modules/account/backends/supabase/**'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					patterns: [
						{ group: ['#app/modules/account/backends/better-auth/*', '**/backends/better-auth/*', '../better-auth/*'], message: 'The two backends never import each other.' },
					],
				},
			],
		},
	},
	{
		// Boot code, scripts and tests may read the raw environment.
		files: ['server.js', 'app/env.server.ts', 'app/boot.server.ts', 'scripts/**', 'tests/**', 'bench/**', 'playwright.config.ts', '*.config.ts'],
		rules: { 'no-restricted-syntax': 'off' },
	},
)
