#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so there is no separate compile step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
