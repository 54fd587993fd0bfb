namespace RpcCompare.Load.Soak;

/// <summary>How --soak loads each binding.</summary>
/// <param name="Duration">How long each binding is held at the rate.</param>
/// <param name="Rate">Calls started per second, per operation.</param>
internal sealed record SoakSettings(TimeSpan Duration, int Rate)
{
    public static TimeSpan DefaultDuration { get; } = TimeSpan.FromMinutes(10);

    public const int DefaultRate = 1_000;

    /// <summary>Parses "600", "90s", "10m", "1h" or "00:10:00".</summary>
    public static TimeSpan ParseDuration(string text)
    {
        text = text.Trim();
        var (number, unit) = char.IsLetter(text[^1]) ? (text[..^1], char.ToLowerInvariant(text[^1])) : (text, 's');
        if (double.TryParse(number, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var value) && value > 0
            && unit is 's' or 'm' or 'h')
        {
            return unit switch { 'h' => TimeSpan.FromHours(value), 'm' => TimeSpan.FromMinutes(value), _ => TimeSpan.FromSeconds(value) };
        }

        return TimeSpan.TryParse(text, System.Globalization.CultureInfo.InvariantCulture, out var span) && span > TimeSpan.Zero
            ? span
            : throw new ArgumentException($"'{text}' is not a duration: give seconds (600, 90s), minutes (10m), hours (1h) or hh:mm:ss.");
    }
}
