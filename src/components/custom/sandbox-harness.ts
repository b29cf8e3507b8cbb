/**
 * The script evaluated in every sandbox after the component's own: it takes the module's default export, and
 * defines the two functions the host calls. Every value crosses the boundary as JSON text, parsed on the other side,
 * so no object of one side is ever reachable from the other. The functions are read once by the host, so a
 * component that later overwrites these globals changes nothing the host calls.
 */
import { EXPORTS_GLOBAL } from './component-source.js';

export const HARNESS = `(function () {
  var exported = globalThis.${EXPORTS_GLOBAL};
  delete globalThis.${EXPORTS_GLOBAL};
  var component = exported && exported.default !== undefined ? exported.default : exported;
  var stringify = JSON.stringify, parse = JSON.parse;
  var current = null;
  function describe() {
    if (component === null || typeof component !== 'object') return stringify({ notAnObject: typeof component });
    return stringify({ definition: component, runType: typeof component.run });
  }
  function settle(state, value) {
    try { state.text = stringify({ value: value === undefined ? null : value }); }
    catch (error) { state.text = stringify({ error: 'run() returned a value that is not JSON: ' + String(error && error.message) }); }
  }
  function fail(state, error) {
    state.text = stringify({ error: error instanceof Error ? String(error.message) : String(error) });
  }
  // A run that returns a plain value is answered by this one call; a promise is settled by the host's later turns.
  function invoke(inputsJson, contextJson) {
    var state = { text: '' };
    current = state;
    var result;
    try { result = component.run(parse(inputsJson), parse(contextJson)); } catch (error) { fail(state, error); return state.text; }
    if (result === null || typeof result !== 'object' || typeof result.then !== 'function') { settle(state, result); return state.text; }
    Promise.resolve(result).then(function (value) { settle(state, value); }, function (error) { fail(state, error); });
    return '';
  }
  function outcome() {
    return current ? current.text : '';
  }
  return [describe, invoke, outcome];
})()`;
