namespace RpcCompare.Load.Capacity;

/// <summary>
/// Finds the highest rate that holds: doubles the rate from the start while steps hold, then
/// bisects between the last rate that held and the first that did not. When even the start rate
/// does not hold it halves downward first, so a slow binding still gets a figure.
/// </summary>
internal static class CapacitySearch
{
    /// <param name="settings">Start, ceiling and precision of the search.</param>
    /// <param name="probe">Holds one rate for one step and judges it.</param>
    /// <returns>The capacity (null when not even <see cref="CapacitySettings.MinRate"/> held) and every step, in the order run.</returns>
    public static async Task<(int? Capacity, IReadOnlyList<CapacityStep> Steps)> RunAsync(CapacitySettings settings, Func<int, Task<CapacityStep>> probe)
    {
        var steps = new List<CapacityStep>();
        async Task<bool> Holds(int rate)
        {
            var step = await probe(rate);
            steps.Add(step);
            return step.Held;
        }

        int? held = null;
        int? broke = null;
        var rate = Math.Min(settings.StartRate, settings.MaxRate);
        if (await Holds(rate))
        {
            held = rate;
            while (rate < settings.MaxRate)
            {
                rate = (int)Math.Min(2L * rate, settings.MaxRate);
                if (!await Holds(rate))
                {
                    broke = rate;
                    break;
                }

                held = rate;
            }
        }
        else
        {
            broke = rate;
            while (rate / 2 >= CapacitySettings.MinRate)
            {
                rate /= 2;
                if (await Holds(rate))
                {
                    held = rate;
                    break;
                }

                broke = rate;
            }
        }

        if (held is null || broke is null)
        {
            return (held, steps);
        }

        var low = held.Value;
        var high = broke.Value;
        while (high - low > Math.Max(1, settings.Precision * low))
        {
            var middle = low + ((high - low) / 2);
            if (await Holds(middle))
            {
                low = middle;
            }
            else
            {
                high = middle;
            }
        }

        return (low, steps);
    }
}
