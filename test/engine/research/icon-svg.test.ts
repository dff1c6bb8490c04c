// The SVG icon filter: an XML parse of UTF-8 only, every element and attribute on an allow-list, references
// only inside the file.
import { describe, expect, test } from "bun:test";
import { isIconImage } from "../../../src/engine/research/icon.ts";

describe("SVG icons: an XML parse against an allow-list", () => {
  const utf8 = (t: string) => new TextEncoder().encode(t);
  const svg = (d: Uint8Array) => isIconImage("image/svg+xml", d);
  const NS = 'xmlns="http://www.w3.org/2000/svg"';

  test("plain logos pass: shapes, gradients, references inside the file, an XML declaration, a UTF-8 BOM", () => {
    for (const t of [
      `<svg ${NS} viewBox="0 0 32 32"><title>Acme</title><rect width="32" height="32" rx="4" fill="#0b5cad"/></svg>`,
      `<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo --><svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" width="16" height="16"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient><path id="p" d="M0 0h16v16z"/></defs><use xlink:href="#p" fill="url(#g)"/><g transform="scale(.5)" style="fill:#123;opacity:.5"><circle cx="8" cy="8" r="4"/><text x="1" y="12" font-family="sans-serif">A</text></g></svg>`,
      `\ufeff<svg ${NS}><use href="#a"/><path id="a" d="M1 1"/></svg>`,
    ])
      expect({ t, kept: svg(utf8(t)) }).toEqual({ t, kept: true });
  });

  test("what design tools export passes: a doctype without declarations, a style sheet of classes, an embedded bitmap", () => {
    const illustrator = `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg version="1.1" id="Layer_1" ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
	 viewBox="0 0 32 32" style="enable-background:new 0 0 32 32;" xml:space="preserve">
<style type="text/css">
	.st0{fill:#0B5CAD;}
	.st1{fill:url(#SVGID_1_);}
</style>
<linearGradient id="SVGID_1_" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="32" y2="32"><stop offset="0" style="stop-color:#FFFFFF"/></linearGradient>
<rect class="st0" width="32" height="32"/>
<circle class="st1" cx="16" cy="16" r="8"/>
</svg>
`;
    const figma = `<svg width="32" height="32" viewBox="0 0 32 32" fill="none" ${NS} xmlns:xlink="http://www.w3.org/1999/xlink"><g clip-path="url(#clip0_1_2)"><path fill-rule="evenodd" clip-rule="evenodd" d="M0 0h32v32H0z" fill="#0B5CAD"/><rect width="32" height="32" fill="url(#pattern0)"/></g><defs><pattern id="pattern0" patternContentUnits="objectBoundingBox" width="1" height="1"><use xlink:href="#image0" transform="scale(.03125)"/></pattern><clipPath id="clip0_1_2"><rect width="32" height="32" fill="white"/></clipPath><image id="image0" width="32" height="32" xlink:href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="/></defs></svg>`;
    expect(svg(utf8(illustrator))).toBe(true);
    expect(svg(utf8(figma))).toBe(true);
  });

  test("scripts, handlers, foreign content, namespace tricks, external references and entities are refused", () => {
    for (const t of [
      `<svg ${NS}><script>alert(1)</script></svg>`,
      `<svg ${NS}><h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script></svg>`,
      `<svg:svg xmlns:svg="http://www.w3.org/2000/svg"><svg:script>alert(1)</svg:script></svg:svg>`,
      `<svg xmlns="http://www.w3.org/1999/xhtml"><rect/></svg>`,
      `<svg ${NS}><g xmlns="http://www.w3.org/1999/xhtml"><rect/></g></svg>`,
      `<svg ${NS}><SCRIPT>alert(1)</SCRIPT></svg>`,
      `<svg ${NS} onload="alert(1)"/>`,
      `<svg ${NS}><rect ONCLICK="x()"/></svg>`,
      `<svg ${NS}><foreignObject><iframe src="https://x.example"/></foreignObject></svg>`,
      `<svg ${NS}><a href="javascript:alert(1)"><rect/></a></svg>`,
      `<svg ${NS}><use href="https://evil.example/sprite.svg#a"/></svg>`,
      `<svg ${NS} xmlns:x="http://www.w3.org/1999/xlink"><use x:href="data:image/svg+xml,<svg onload=alert(1)>"/></svg>`,
      `<svg ${NS}><image href="https://evil.example/track.png"/></svg>`,
      `<svg ${NS}><style>@import url(https://evil.example/x.css);</style></svg>`,
      `<svg ${NS}><style>.a{fill:url(https://evil.example/#x)}</style></svg>`,
      `<svg ${NS}><style>.a{-moz-binding:url(#x)} .b{behavior:url(#y)}</style></svg>`,
      `<svg ${NS}><style>.a{background:u\\72l(https://evil.example/)}</style></svg>`,
      `<svg ${NS}><style><![CDATA[</style><script>alert(1)</script>]]></style></svg>`,
      `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd" [<!ENTITY a "b">]><svg ${NS}/>`,
      `<svg ${NS}><image href="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"/></svg>`,
      `<svg ${NS}><image href="https://evil.example/track.png"/></svg>`,
      `<svg ${NS}><rect style="fill:url(https://evil.example/#x)"/></svg>`,
      `<svg ${NS}><rect fill="url(https://evil.example/#x)"/></svg>`,
      `<svg ${NS}><set attributeName="href" to="javascript:alert(1)"/></svg>`,
      `<svg ${NS}><animate attributeName="onload" values="alert(1)"/></svg>`,
      `<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]><svg ${NS}>&x;</svg>`,
      `<?xml-stylesheet href="https://evil.example/x.xsl" type="text/xsl"?><svg ${NS}/>`,
      `<html><svg ${NS}/></html>`,
      `<svg ${NS}><rect/></svg><script>alert(1)</script>`,
      "no svg at all",
    ])
      expect({ t, kept: svg(utf8(t)) }).toEqual({ t, kept: false });
  });

  test("anything but UTF-8 is refused: UTF-16 with a BOM or without, another declared encoding, broken bytes", () => {
    const body = `<svg ${NS}><rect/></svg>`;
    const utf16le = (t: string) => {
      const out = new Uint8Array(2 + t.length * 2);
      out.set([0xff, 0xfe]);
      for (let i = 0; i < t.length; i++) out[2 + i * 2] = t.charCodeAt(i);
      return out;
    };
    const utf16be = (t: string) => {
      const out = new Uint8Array(2 + t.length * 2);
      out.set([0xfe, 0xff]);
      for (let i = 0; i < t.length; i++) out[3 + i * 2] = t.charCodeAt(i);
      return out;
    };
    expect(svg(utf16le(body))).toBe(false);
    expect(svg(utf16be(body))).toBe(false);
    expect(svg(utf16le(body).subarray(2))).toBe(false);
    expect(svg(utf8(`<?xml version="1.0" encoding="UTF-16"?>${body}`))).toBe(false);
    expect(svg(utf8(`<?xml version="1.0" encoding="ISO-8859-1"?>${body}`))).toBe(false);
    expect(svg(utf8(`<?xml version='1.0' encoding='utf-7'?>${body}`))).toBe(false);
    expect(svg(new Uint8Array([...utf8(`<svg ${NS}><text>`), 0xc3, 0x28, ...utf8("</text></svg>")]))).toBe(
      false,
    );
    expect(svg(utf8(`<?xml version="1.0" encoding="utf-8"?>${body}`))).toBe(true);
  });
});
