# odfpy (Debian python3-odf 1.4.2; /usr/bin/python3 gen.py): ODT/ODP fixtures of TestODFHiddenIsSaid.
from odf.opendocument import OpenDocumentText, OpenDocumentPresentation
from odf.style import Style, TextProperties, DrawingPageProperties, ParagraphProperties, MasterPage, PageLayout, PageLayoutProperties, GraphicProperties
from odf.text import P, H, Span, Section, HiddenParagraph, HiddenText
from odf.table import Table, TableRow, TableCell, TableColumn
from odf.draw import Page, Frame, TextBox

def odt(name, hidden=True):
    doc = OpenDocumentText()
    t1 = Style(name="T1", family="text")
    t1.addElement(TextProperties(display="none" if hidden else "true"))
    doc.automaticstyles.addElement(t1)
    ps = Style(name="Secret", family="paragraph")
    ps.addElement(TextProperties(display="none" if hidden else "true"))
    doc.styles.addElement(ps)
    child = Style(name="Secret_20_child", displayname="Secret child", family="paragraph", parentstylename="Secret")
    doc.styles.addElement(child)
    doc.text.addElement(H(outlinelevel=1, text="Board minutes"))
    doc.text.addElement(P(text="The harbour board met on 12 March."))
    sec = Section(name="Draft", display="none" if hidden else "true")
    sec.addElement(P(text="Draft wording: the tender closes in April."))
    sec.addElement(P(text="Second draft line."))
    doc.text.addElement(sec)
    p = P(text="Confidential remark for the chair.")
    p.addElement(HiddenParagraph(condition="ooow:1", ishidden="true" if hidden else "false"))
    doc.text.addElement(p)
    p = P(text="The budget is ")
    ht = HiddenText(condition="ooow:1", stringvalue="4.2 million", ishidden="true" if hidden else "false")
    ht.addText("4.2 million")
    p.addElement(ht)
    p.addText(" for now.")
    doc.text.addElement(p)
    # as LibreOffice writes a field: its text in string-value only, the element empty
    p = P(text="Reviewer: ")
    p.addElement(HiddenText(condition="ooow:1", stringvalue="Ann Berg", ishidden="true" if hidden else "false"))
    doc.text.addElement(p)
    p = P(text="Dredging starts in May")
    s = Span(stylename=t1, text=" (subject to the vote)")
    p.addElement(s)
    p.addText(".")
    doc.text.addElement(p)
    doc.text.addElement(P(stylename=child, text="Paragraph styled hidden by its parent style."))
    tab = Table(name="Costs")
    tab.addElement(TableColumn())
    tab.addElement(TableColumn(visibility="collapse" if hidden else "visible"))
    tab.addElement(TableColumn())
    for i, (a, b, c) in enumerate([("Item", "Internal", "Cost"), ("Dredging", "x1", "900"), ("Survey", "x2", "40"), ("Fees", "", "12")]):
        r = TableRow(visibility="collapse" if hidden and i == 2 else "visible")
        for v in (a, b, c):
            cell = TableCell()
            cell.addElement(P(text=v))
            r.addElement(cell)
        tab.addElement(r)
    doc.text.addElement(tab)
    doc.text.addElement(P(text="End of minutes."))
    doc.save(name)

odt("hidden.odt")
odt("shown.odt", hidden=False)

def odp(name):
    doc = OpenDocumentPresentation()
    pl = PageLayout(name="PM1")
    pl.addElement(PageLayoutProperties(pagewidth="28cm", pageheight="21cm"))
    doc.automaticstyles.addElement(pl)
    mp = MasterPage(name="Default", pagelayoutname=pl)
    doc.masterstyles.addElement(mp)
    dp = Style(name="dp2", family="drawing-page")
    dp.addElement(DrawingPageProperties(visibility="hidden"))
    doc.automaticstyles.addElement(dp)
    for i, text in enumerate(["Agenda", "Backup numbers only", "Thanks"]):
        kw = {"stylename": dp} if i == 1 else {}
        page = Page(name="page%d" % (i + 1), masterpagename=mp, **kw)
        fr = Frame(width="20cm", height="3cm", x="2cm", y="2cm")
        tb = TextBox()
        tb.addElement(P(text=text))
        fr.addElement(tb)
        page.addElement(fr)
        doc.presentation.addElement(page)
    doc.save(name)

odp("hidden.odp")

def conditional(name):
    # office/35: sections shown or hidden by a condition LibreOffice evaluates
    doc = OpenDocumentText()
    doc.text.addElement(H(outlinelevel=1, text="Offer"))
    doc.text.addElement(P(text="Price per tonne: 12 EUR."))
    sec = Section(name="DiscountClause", display="condition", condition="ooow:Customer == \"gold\"")
    sec.addElement(P(text="Gold customers receive a 10 percent discount."))
    doc.text.addElement(sec)
    sec = Section(name="Always", display="true")
    sec.addElement(P(text="Valid until 30 June."))
    doc.text.addElement(sec)
    doc.save(name)

conditional("conditional.odt")
