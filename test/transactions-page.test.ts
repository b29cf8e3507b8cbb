/** A page of a flow's transactions across its traces' spans: which traces, and which of their spans. */
import t from 'tap';
import { pageOfSpans } from '../src/services/records/transactions-of.js';

const traces = [
  { id: 'a', spanCount: 2 },
  { id: 'b', spanCount: 3 },
  { id: 'c', spanCount: 1 },
];

t.same(pageOfSpans(traces, 0, 4), [
  { id: 'a', from: 0, to: 2 },
  { id: 'b', from: 0, to: 2 },
]);
t.same(pageOfSpans(traces, 4, 4), [
  { id: 'b', from: 2, to: 3 },
  { id: 'c', from: 0, to: 1 },
]);
t.same(pageOfSpans(traces, 3, 1), [{ id: 'b', from: 1, to: 2 }], 'a page inside one trace');
t.same(pageOfSpans(traces, 6, 5), [], 'past the end: nothing');
t.same(pageOfSpans([], 0, 5), []);
