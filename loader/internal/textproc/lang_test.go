package textproc

import "testing"

func TestDetectLanguage(t *testing.T) {
	tests := []struct{ text, want string }{
		{"The committee will review the proposal next week and publish its findings in the annual report.", "eng"},
		{"El comité revisará la propuesta la próxima semana y publicará sus conclusiones en el informe anual.", "spa"},
		{"Der Ausschuss wird den Vorschlag nächste Woche prüfen und seine Ergebnisse im Jahresbericht veröffentlichen.", "deu"},
		{"Le comité examinera la proposition la semaine prochaine et publiera ses conclusions dans le rapport annuel.", "fra"},
		{"Комитет рассмотрит предложение на следующей неделе и опубликует свои выводы в годовом отчете.", "rus"},
		{"委员会将在下周审查该提案，并在年度报告中公布其调查结果。", "cmn"},
		{"Hi there", "und"},
		{"", "und"},
		{"1234 5678 !!! ---- 42.0 % $$$ 99", "und"},
	}
	for _, tt := range tests {
		got, conf := DetectLanguage(tt.text)
		if got != tt.want {
			t.Errorf("DetectLanguage(%.30q) = %s (%.2f), want %s", tt.text, got, conf, tt.want)
		}
		if conf < 0 || conf > 1 || (got == "und") != (conf == 0) {
			t.Errorf("DetectLanguage(%.30q): confidence %v for %s", tt.text, conf, got)
		}
	}
}
