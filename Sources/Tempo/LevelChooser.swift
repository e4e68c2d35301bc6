import Foundation

/// The metrical-level decision (issue 21): which of the tempo candidates — the salient
/// periods and their ×2, ×3, ½ and ⅓ relatives — is the beat a listener taps.
///
/// Every candidate gets a feature vector (`features`) and a linear score w·x; the
/// candidates of one song compete in a softmax (a conditional logit, the multinomial
/// logistic model of a choice among alternatives). The weights are fitted by
/// `scripts/tempo-level-train` on the tuned sets only (`levels-tuned` and `dev`),
/// penalised towards the hand-set score that preceded them (log P + ½ log R + log S −
/// 0.45 o²), with the penalty chosen by leave-one-generator-out validation, and written
/// below as constants. That validation chose an infinite penalty: the weights in force are
/// the hand-set score plus the two hand-set hinges (docs/tempo.md, "Fitting the chooser").
struct LevelChooser {
    /// What one candidate offers as evidence of being the beat.
    struct Evidence {
        var bpm: Double
        /// The pulse-train fit at the candidate's period (precision, recall, metre).
        var fit: PulseTrain.Fit
        /// Periodicity salience at the candidate, at twice and at half its tempo.
        var salience: Double
        var salienceDouble: Double
        var salienceHalf: Double
        /// Mean low-band (0–150 Hz) novelty on the candidate's pulses, over the band's mean.
        var lowRatio: Double
        /// The share of the low band's novelty that the pulses collect.
        var lowRecall: Double
        /// Mean high-band (above 2.5 kHz) novelty on the candidate's pulses, over the band's mean.
        var highRatio: Double
        /// Onsets per second in the whole song, and in its low band alone.
        var onsetRate: Double
        var lowOnsetRate: Double
    }

    static let featureNames = ["logP", "logR", "logS", "octave", "octave2", "offbeat", "thirds",
                               "alternate", "density2", "lowRatio", "doubleS", "halfS",
                               "lowRecall", "highRatio", "lowDensity2",
                               "emptyAlternate", "fullOffbeat"]

    /// The feature vector: log precision, log recall, log salience; the octave o =
    /// log2(bpm / 110) and o²; the metre around the pulses (log of the novelty half-way,
    /// at the thirds and on the weaker of even/odd pulses, each against the pulses');
    /// (log2 onsets per beat)², the low band's precision, the salience of the neighbouring
    /// levels (twice and half the tempo) against the candidate's; the low band's recall and
    /// the high band's precision (all in logs); (log2 low-band onsets per beat)²; and two
    /// hinges that music rarely reaches but plain pulses do: every other pulse nearly
    /// empty (below ⅕ of the pulses' mean: the level is too fast), and the off-beat as
    /// strong as the beat (above 0.9 of it: the level may be too slow). Their weights are
    /// set by hand (the training sets barely reach them) and kept fixed in the fit.
    static func features(_ e: Evidence) -> [Double] {
        func lg(_ x: Double) -> Double { log(max(x, 1e-6)) }
        let octave = log2(e.bpm / 110)
        let perBeat = log2(max(e.onsetRate, 0.05) * 60 / e.bpm)
        let lowPerBeat = log2(max(e.lowOnsetRate, 0.05) * 60 / e.bpm)
        let on = e.fit.precision
        return [lg(on), lg(e.fit.recall), lg(e.salience), octave, octave * octave,
                lg(e.fit.offbeat) - lg(on), lg(e.fit.thirds) - lg(on), lg(e.fit.alternate) - lg(on),
                perBeat * perBeat, lg(e.lowRatio), lg(e.salienceDouble) - lg(e.salience),
                lg(e.salienceHalf) - lg(e.salience), lg(e.lowRecall), lg(e.highRatio),
                lowPerBeat * lowPerBeat,
                max(0, log(0.2) - (lg(e.fit.alternate) - lg(on))), max(0, lg(e.fit.offbeat) - lg(on) - log(0.9))]
    }

    /// The weights of `featureNames`, in order (fitted; see the type's documentation).
    static let weights: [Double] = [1.0000, 0.5000, 1.0000, 0.0000, -0.4500, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, 0.0000, -1.0000, -2.0000]

    /// The candidate's log score.
    static func score(_ e: Evidence) -> Double {
        zip(features(e), weights).reduce(0) { $0 + $1.0 * $1.1 }
    }
}
