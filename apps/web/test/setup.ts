// jsdom lacks ResizeObserver (MUI X) and matchMedia.
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
(globalThis as any).ResizeObserver ??= ResizeObserverStub;
if (!window.matchMedia) {
  (window as any).matchMedia = (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  });
}
afterEach(() => cleanup());
// Generous waits for findBy/waitFor: the machine runs several suites at once and a slow render
// must not fail a test (no test waits a fixed time instead). A wait ends as soon as its condition
// holds, so the cap costs nothing on an idle machine; only a real failure takes that long.
configure({ asyncUtilTimeout: 30_000 });
