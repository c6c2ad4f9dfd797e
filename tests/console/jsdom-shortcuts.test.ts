// The label.control shortcut (tests/console/jsdom-shortcuts.ts) answers as the HTML standard says.
import { describe, expect, it } from 'vitest';

describe('label.control in console tests', () => {
  it('finds the labelled control by id, and nothing for a missing id or an element that cannot be labelled', () => {
    document.body.innerHTML = `<label id="a" for="x">A</label><div><input id="x"></div>
      <label id="b" for="nope">B</label><label id="c" for="d">C</label><div id="d"></div><label id="e" for="">E</label>`;
    expect((document.getElementById('a') as HTMLLabelElement).control).toBe(document.getElementById('x'));
    expect((document.getElementById('b') as HTMLLabelElement).control).toBeNull();
    expect((document.getElementById('c') as HTMLLabelElement).control).toBeNull();
    expect((document.getElementById('e') as HTMLLabelElement).control).toBeNull();
  });

  it('takes the first in tree order when an id is repeated, and works outside a document', () => {
    document.body.innerHTML = `<div id="late"></div><label id="l" for="dup">L</label>`;
    const second = document.createElement('input');
    second.id = 'dup';
    const first = document.createElement('input');
    first.id = 'dup';
    document.body.append(second);
    document.body.prepend(first);
    expect((document.getElementById('l') as HTMLLabelElement).control).toBe(first);
    const detached = document.createElement('div');
    detached.innerHTML = `<label for="q">Q</label><input id="q"><label>R <select></select></label>`;
    const [q, r] = detached.querySelectorAll('label');
    expect(q!.control).toBe(detached.querySelector('input'));
    expect(r!.control).toBe(detached.querySelector('select'));
    expect(detached.querySelector('input')!.labels![0]).toBe(q);
  });
});
