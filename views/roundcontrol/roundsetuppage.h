#pragma once
// Round Control's Setup page: which endpoint and model answer and at what temperature, how many candidates per
// round, how many exemplars and how they are drawn, repair attempts, a hint, and whether the prompt is reviewed
// before it is sent. Its defaults come from Settings and go back there when a round starts.
#include "core/llm/endpointconfig.h"

#include <QPointer>
#include <QScrollArea>
#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QPlainTextEdit;
class QSpinBox;

namespace kforge {

class Settings;
struct RoundSettings;

class RoundSetupPage : public QScrollArea
{
    Q_OBJECT
public:
    explicit RoundSetupPage(Settings *settings, QWidget *parent = nullptr);

    // The settings a round would start with (the timing options from Settings).
    RoundSettings roundSettings() const;
    std::optional<EndpointConfig> selectedEndpoint() const;
    QString modelName() const;
    double temperature() const;
    bool reviewsPrompt() const;
    // What a round starts with becomes the default for the next session.
    void saveDefaults();

    QComboBox *endpointBox() const { return m_endpoint; }
    QComboBox *modelBox() const { return m_model; }
    QSpinBox *candidatesBox() const { return m_candidates; }
    QSpinBox *exemplarsBox() const { return m_exemplars; }
    QSpinBox *repairsBox() const { return m_repairs; }
    QDoubleSpinBox *temperatureBox() const { return m_temperature; }
    QPlainTextEdit *hintEdit() const { return m_hint; }
    QCheckBox *reviewBox() const { return m_review; }
    QComboBox *exemplarModeBox() const { return m_exemplarMode; }

Q_SIGNALS:
    // Settings' endpoints were read again (the chosen one kept where it still exists).
    void endpointsReloaded();
    // Another endpoint was chosen, or the model or the temperature changed: the request a round sends changed.
    void endpointChanged();
    void requestChanged();
    void candidatesChanged();

private:
    QGroupBox *createModelBox();
    QGroupBox *createRoundBox();
    void loadDefaults();
    void reloadEndpoints();
    void updateModels();

    QPointer<Settings> m_settings;
    QComboBox *m_endpoint = nullptr;
    QComboBox *m_model = nullptr;
    QDoubleSpinBox *m_temperature = nullptr;
    QSpinBox *m_candidates = nullptr;
    QSpinBox *m_exemplars = nullptr;
    QComboBox *m_strategy = nullptr;
    QComboBox *m_exemplarMode = nullptr;
    QSpinBox *m_repairs = nullptr;
    QPlainTextEdit *m_hint = nullptr;
    QCheckBox *m_review = nullptr;
};

} // namespace kforge
