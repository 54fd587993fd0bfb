using RpcCompare.Bindings.ContractAssemblies;

namespace RpcCompare.Host;

/// <summary>The start-up side of <c>--contracts</c>: what is served, what is not, and implementations that cannot be built.</summary>
internal static partial class TeamContracts
{
    /// <summary>
    /// Logs what the assembly contributes and creates each implementation now, so one whose
    /// constructor needs something the host does not have stops the host with the container's
    /// reason rather than failing its first call.
    /// </summary>
    /// <exception cref="InvalidOperationException">An implementation cannot be created from the host's container.</exception>
    public static void Announce(IServiceProvider services, ContractAssembly assembly)
    {
        var logger = services.GetRequiredService<ILoggerFactory>().CreateLogger("RpcCompare.Host.Contracts");
        assembly.CreateImplementations(services);
        Serving(logger, assembly.Path, string.Join(", ", assembly.Services.Select(s => $"{s.Contract.FullName} ({s.Implementation.Name})")));
        foreach (var reason in assembly.NotServed)
        {
            NotServed(logger, reason);
        }
    }

    [LoggerMessage(1, LogLevel.Information, "Serving from {Assembly}: {Contracts}")]
    private static partial void Serving(ILogger logger, string assembly, string contracts);

    [LoggerMessage(2, LogLevel.Warning, "Not served: {Reason}")]
    private static partial void NotServed(ILogger logger, string reason);
}
