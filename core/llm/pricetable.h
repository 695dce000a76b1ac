#pragma once
// Optional per-model prices ($ per million tokens) that turn usage into cost. Filled by the user (prices
// change too often to ship); a pattern ending in '*' matches model names by prefix.
#include "core/llm/llmusage.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

class QSettings;

namespace kforge {

struct ModelPrice {
    QString model; // exact name, or a prefix followed by '*'
    double inputPerMTok = 0;
    double outputPerMTok = 0;
    bool operator==(const ModelPrice &) const = default;
};

class PriceTable
{
public:
    void set(const ModelPrice &price);
    void remove(const QString &model);
    const QList<ModelPrice> &prices() const { return m_prices; }
    // An exact entry wins over patterns; among patterns the longest prefix wins.
    std::optional<ModelPrice> find(const QString &model) const;
    // Output price for every completion token (reasoning included, as providers bill it).
    std::optional<double> cost(const QString &model, const LlmUsage &usage) const;

    void save(QSettings &settings) const; // "llm/prices"
    static PriceTable load(QSettings &settings);
    // {"gpt-4.1": {"input": 2.0, "output": 8.0}, "deepseek-*": {...}}; error set on bad input.
    static PriceTable fromJson(const QByteArray &json, QString *error = nullptr);
    QByteArray toJson() const;

private:
    QList<ModelPrice> m_prices;
};

} // namespace kforge
