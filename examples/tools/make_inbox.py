#!/usr/bin/python3
"""Regenerates examples/inbox: a small self-made corpus for `make demo` and
the end-to-end tests. Run with Debian's python3-fitz: /usr/bin/python3 examples/tools/make_inbox.py
The generated files are committed; this script documents how they were made."""
import email.message, email.policy, os, zipfile, fitz

OUT = os.path.join(os.path.dirname(__file__), "..", "inbox")
os.makedirs(OUT, exist_ok=True)

POLICY = [
    ("title", "Remote Work Policy"),
    ("h", "1. Purpose"),
    ("p", "This policy explains how employees of Northwind Traders may work away from the office. "
          "It applies to every permanent employee and to contractors whose agreement refers to it."),
    ("h", "2. Eligibility"),
    ("p", "An employee becomes eligible after completing the probation period of three months. "
          "Managers approve remote work in writing and review the arrangement every six months."),
    ("li", "- Equipment is provided by the company and remains its property."),
    ("li", "- Security updates must be installed within seven days of release."),
    ("li", "- Confidential papers are never printed at home."),
    ("h", "3. Termination notice"),
    ("p", "Either party may end a remote work arrangement with a notice period of thirty days. "
          "The notice is given in writing to the human resources department, which confirms it within five working days."),
]

def policy_pdf(path):
    doc = fitz.open()
    for pageno in range(2):
        page = doc.new_page(width=595, height=842)
        y = 72
        page.insert_text((72, 40), "Northwind Traders - Internal", fontsize=8)
        page.insert_text((280, 810), f"Page {pageno+1} of 2", fontsize=8)
        items = POLICY if pageno == 0 else [("h", "4. Expenses"), ("p",
            "Reasonable costs of a home internet connection are reimbursed up to forty euros per month "
            "when the employee works remotely at least two days per week. Receipts are submitted every quarter."),
            ("h", "5. Contacts"), ("p", "Questions about this policy go to the human resources helpdesk.")]
        for kind, text in items:
            size = {"title": 20, "h": 14}.get(kind, 11)
            font = "hebo" if kind in ("title", "h") else "helv"
            rect = fitz.Rect(72, y, 523, y + 400)
            left = page.insert_textbox(rect, text, fontsize=size, fontname=font)
            used = 400 - left
            y += used + size * 0.8
    doc.set_metadata({"title": "Remote Work Policy", "author": "Northwind HR"})
    doc.save(path)

def scan_pdf(path, png_path):
    # a born-digital page rendered to pixels: an image-only "scan"
    src = fitz.open()
    page = src.new_page(width=595, height=842)
    text = ("SERVICE AGREEMENT\n\nThis agreement is made between Contoso Ltd and Fabrikam Inc.\n"
            "The supplier delivers maintenance services for the warehouse robots.\n"
            "Payment is due within thirty days of the invoice date.\n"
            "The agreement may be terminated with ninety days written notice.\n\n"
            "Signed in Lisbon on the first of March.")
    page.insert_textbox(fitz.Rect(72, 100, 523, 700), text, fontsize=13, fontname="helv")
    pix = page.get_pixmap(dpi=200, colorspace=fitz.csGRAY)
    pix.save(png_path)
    scan = fitz.open()
    sp = scan.new_page(width=595, height=842)
    sp.insert_image(sp.rect, filename=png_path)
    # a second, born-digital page: mixed routing in one file
    p2 = scan.new_page(width=595, height=842)
    p2.insert_textbox(fitz.Rect(72, 100, 523, 700), "Annex A. Service levels\n\nResponse time for critical "
                      "incidents is four hours. Routine maintenance is scheduled monthly.", fontsize=12, fontname="helv")
    scan.save(path, deflate=True, garbage=3)

def invoice_csv(path):
    with open(path, "w") as f:
        f.write("item,quantity,unit_price,total\nRobot inspection,2,150.00,300.00\nGripper replacement,1,420.50,420.50\n"
                "Firmware update,3,35.00,105.00\n")

def docx(path):
    W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    def para(text, style=None):
        ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
        return f"<w:p>{ppr}<w:r><w:t>{text}</w:t></w:r></w:p>"
    body = "".join([
        para("Travel Expenses Guideline", "Title"),
        para("Scope", "Heading1"),
        para("This guideline covers travel booked for customer visits and trade fairs."),
        para("Allowances", "Heading1"),
        para("Hotel costs are reimbursed up to one hundred and twenty euros per night."),
        '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Country</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Daily allowance</w:t></w:r></w:p></w:tc></w:tr>'
        '<w:tr><w:tc><w:p><w:r><w:t>Portugal</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>45</w:t></w:r></w:p></w:tc></w:tr>'
        '<w:tr><w:tc><w:p><w:r><w:t>Germany</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>52</w:t></w:r></w:p></w:tc></w:tr></w:tbl>',
    ])
    doc = f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {W}><w:body>{body}</w:body></w:document>'
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("_rels/.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
        z.writestr("word/document.xml", doc)

def html(path):
    with open(path, "w") as f:
        f.write("""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Warehouse Safety FAQ</title></head>
<body><nav><a href="/">Home</a> | <a href="/faq">FAQ</a></nav>
<main><h1>Warehouse Safety FAQ</h1>
<h2>Who may operate a forklift?</h2><p>Only staff holding a valid forklift licence may operate a forklift. Licences are renewed every three years after a practical test.</p>
<h2>What protective equipment is required?</h2><ul><li>Safety shoes in every storage area.</li><li>High-visibility vests near loading docks.</li><li>Helmets where goods are stacked above two metres.</li></ul>
<h2>Inspection schedule</h2><table><thead><tr><th>Area</th><th>Frequency</th></tr></thead><tbody><tr><td>Loading docks</td><td>Weekly</td></tr><tr><td>High racks</td><td>Monthly</td></tr></tbody></table>
</main><footer>Copyright Northwind Traders</footer></body></html>""")

def text(path):
    with open(path, "w") as f:
        f.write("Meeting notes - robot maintenance\n\nThe team agreed to replace the grippers on robots 3 and 7 before the peak season.\n"
                "Firmware version 2.4 fixes the calibration drift reported in March.\n\n"
                "Next review: the first Monday of the next quarter.\n")

def eml(path, attach_pdf):
    m = email.message.EmailMessage()
    m["From"] = "Ana Costa <ana@contoso.example>"
    m["To"] = "procurement@fabrikam.example"
    m["Subject"] = "=?utf-8?q?Signed_agreement_=E2=80=93_robot_maintenance?="
    m["Date"] = "Mon, 02 Mar 2026 10:15:00 +0000"
    m.set_content("Hello,\n\nplease find the signed service agreement attached.\nThe invoice follows next week.\n\nBest regards,\nAna")
    with open(attach_pdf, "rb") as f:
        m.add_attachment(f.read(), maintype="application", subtype="pdf", filename="service-agreement.pdf")
    with open(path, "wb") as f:
        f.write(m.as_bytes(policy=email.policy.SMTP))

policy_pdf(os.path.join(OUT, "remote-work-policy.pdf"))
scan_pdf(os.path.join(OUT, "service-agreement-scan.pdf"), os.path.join(OUT, "agreement-page.png"))
invoice_csv(os.path.join(OUT, "invoice-2026-03.csv"))
docx(os.path.join(OUT, "travel-guideline.docx"))
html(os.path.join(OUT, "safety-faq.html"))
text(os.path.join(OUT, "meeting-notes.txt"))
eml(os.path.join(OUT, "agreement-mail.eml"), os.path.join(OUT, "service-agreement-scan.pdf"))
os.makedirs(os.path.join(OUT, "archive"), exist_ok=True)
# the same bytes under a second name: extracted once
with open(os.path.join(OUT, "remote-work-policy.pdf"), "rb") as f:
    data = f.read()
with open(os.path.join(OUT, "archive", "remote-work-policy-copy.pdf"), "wb") as f:
    f.write(data)
# bad inputs: quarantined with a reason, the run goes on
with open(os.path.join(OUT, "archive", "truncated-report.pdf"), "wb") as f:
    f.write(data[:300])
open(os.path.join(OUT, "archive", "empty-notes.txt"), "wb").close()
