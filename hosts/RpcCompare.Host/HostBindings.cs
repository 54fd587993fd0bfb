using RpcCompare.Bindings;

namespace RpcCompare.Host;

/// <summary>
/// The server side of every binding in this build, by name. Adding a binding is one line here
/// plus its folder under src/Bindings.
/// </summary>
internal static class HostBindings
{
    private static readonly Dictionary<string, Action<IServiceCollection, IConfiguration, SocketDirectory>> s_registrations = new(StringComparer.Ordinal)
    {
        [BindingNames.Pipes] = static (services, configuration, sockets) => services.AddPipesBinding(configuration, options =>
            options.Path = string.IsNullOrEmpty(options.Path) ? sockets.PathFor("pipes.sock") : options.Path),
    };

    public static IReadOnlyCollection<string> Offered => s_registrations.Keys;

    /// <summary>Parses a --bindings value; throws with a clear message for names this build cannot serve.</summary>
    public static IReadOnlyList<string> Parse(string value)
    {
        var names = value.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (names.Length == 0 || names is ["all"])
        {
            return [.. BindingNames.All.Where(s_registrations.ContainsKey)];
        }

        foreach (var name in names)
        {
            BindingNames.ThrowUnlessOffered(name, s_registrations.Keys);
        }

        return [.. names.Distinct(StringComparer.Ordinal)];
    }

    public static void Add(IServiceCollection services, IConfiguration configuration, SocketDirectory sockets, IEnumerable<string> names)
    {
        foreach (var name in names)
        {
            s_registrations[name](services, configuration, sockets);
        }
    }
}
